// Prints the MIME type Qt's database (shared-mime-info, from XDG_DATA_DIRS) gives each
// file named on the command line, one per line: what a file manager decides when the
// user double-clicks it. Used by packaging/check-desktop-integration.sh.
#include <QCoreApplication>
#include <QMimeDatabase>
#include <cstdio>

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const QMimeDatabase db;
  for (int i = 1; i < argc; ++i)
    std::printf("%s\n", qPrintable(db.mimeTypeForFile(QString::fromLocal8Bit(argv[i])).name()));
  return 0;
}
