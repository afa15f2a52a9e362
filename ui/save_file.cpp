#include "save_file.h"

#include <QFile>

#include "io/output_file.h"

namespace opscope::ui {

bool saveBytes(const QString& path, std::string_view bytes, QString* error) {
  std::string e;
  if (writeOutputFile(QFile::encodeName(path).toStdString(), bytes, e) == WriteStatus::Ok) return true;
  if (error) *error = QString::fromStdString(e);
  return false;
}

}  // namespace opscope::ui
