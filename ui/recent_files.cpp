#include "recent_files.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace opscope::ui {

namespace {
constexpr int kMaxRecent = 10;
}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { refresh(); }

QStringList RecentFiles::list() const { return QSettings().value(QStringLiteral("recent")).toStringList(); }

void RecentFiles::add(const QString& path) {
  QSettings s;
  QStringList list = s.value(QStringLiteral("recent")).toStringList();
  const QString abs = QFileInfo(path).absoluteFilePath();
  list.removeAll(abs);
  list.prepend(abs);
  while (list.size() > kMaxRecent) list.removeLast();
  s.setValue(QStringLiteral("recent"), list);
  refresh();
}

void RecentFiles::refresh() {
  menu_->clear();
  const QStringList all = list();
  for (const QString& p : all) menu_->addAction(p, this, [this, p] { emit openRequested(p); });
  menu_->setEnabled(!all.isEmpty());
  emit changed(all);
}

}  // namespace opscope::ui
