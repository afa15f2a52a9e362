#include "dialog_folder.h"

#include <QDir>

namespace opscope::ui {

namespace {

QString& folder() {
  static QString f;
  return f;
}

}  // namespace

void setDialogFolder(const QString& f) { folder() = f; }

QString dialogStart(const QString& fileName) {
  if (folder().isEmpty()) return fileName;
  return fileName.isEmpty() ? folder() : QDir(folder()).filePath(fileName);
}

}  // namespace opscope::ui
