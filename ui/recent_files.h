#pragma once
// File ▸ Open recent: the last ten traces, folders and cluster tables opened (absolute
// paths, newest first, kept in the settings), as menu entries that open them again.
#include <QObject>
#include <QStringList>

class QMenu;

namespace opscope::ui {

class RecentFiles : public QObject {
  Q_OBJECT
 public:
  RecentFiles(QMenu* menu, QObject* parent);
  void add(const QString& path);
  QStringList list() const;

 signals:
  void openRequested(const QString& path);
  void changed(const QStringList& list);

 private:
  void refresh();
  QMenu* menu_;
};

}  // namespace opscope::ui
