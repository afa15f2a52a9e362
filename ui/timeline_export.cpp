#include "timeline_export.h"

#include <QBuffer>
#include <QFileDialog>
#include <QImage>
#include <QInputDialog>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>

#include "save_file.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {

bool exportTimelinePng(TimelineWidget& timeline, const QString& path, double scale, QString* error, bool wholeList) {
  const QSize size = wholeList ? timeline.wholeListSize() : timeline.size();
  // PNG readers and QImage stop at 32,767 px a side; a taller list is refused, not cut.
  constexpr int kMaxSide = 32767;
  if (size.height() * scale > kMaxSide || size.width() * scale > kMaxSide) {
    if (error)
      *error = QStringLiteral(
                   "the track list is %1 px tall at %2x, more than a PNG can hold (%3 px): "
                   "collapse processes or pick a smaller scale")
                   .arg(static_cast<int>(size.height() * scale))
                   .arg(scale)
                   .arg(kMaxSide);
    return false;
  }
  QImage image(size * scale, QImage::Format_RGB32);
  image.setDevicePixelRatio(scale);
  {
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing);
    if (wholeList) timeline.renderWholeList(p);
    else timeline.render(p, size);
  }
  QByteArray bytes;
  QBuffer f(&bytes);
  f.open(QIODevice::WriteOnly);
  if (!image.save(&f, "PNG")) {
    if (error) *error = QStringLiteral("cannot encode the PNG");
    return false;
  }
  return saveBytes(path, bytes, error);
}

bool exportTimelinePdf(TimelineWidget& timeline, const QString& path, const QString& title, QString* error) {
  QByteArray bytes;
  QBuffer f(&bytes);
  f.open(QIODevice::WriteOnly);
  const QSize size = timeline.size();
  {
    QPdfWriter pdf(&f);
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("opscope"));
    QPainter p(&pdf);
    // Page is in points (1/72 in) and the writer at 96 dpi: scale to fill it.
    const double sx = pdf.width() / static_cast<double>(size.width());
    p.scale(sx, sx);
    timeline.render(p, size);
  }
  f.close();
  return saveBytes(path, bytes, error);
}

QString chooseAndExportTimelinePng(QWidget* parent, TimelineWidget& timeline) {
  if (!timeline.data()) return {};
  bool ok = false;
  const QStringList scales{QStringLiteral("1x"), QStringLiteral("2x"), QStringLiteral("3x"), QStringLiteral("4x")};
  const QString choice =
      QInputDialog::getItem(parent, QStringLiteral("Export PNG"), QStringLiteral("Scale"), scales, 1, false, &ok);
  if (!ok) return {};
  const QStringList parts{QStringLiteral("Visible part"), QStringLiteral("Whole track list")};
  const QString part =
      QInputDialog::getItem(parent, QStringLiteral("Export PNG"), QStringLiteral("Tracks"), parts, 0, false, &ok);
  if (!ok) return {};
  const QString path = QFileDialog::getSaveFileName(
      parent, QStringLiteral("Export PNG"), QStringLiteral("timeline.png"), QStringLiteral("PNG images (*.png)"));
  if (path.isEmpty()) return {};
  QString error;
  if (!exportTimelinePng(timeline, path, choice.left(1).toDouble(), &error, part == parts[1])) {
    QMessageBox::critical(parent, QStringLiteral("Export failed"), error);
    return {};
  }
  return QStringLiteral("Saved %1").arg(path);
}

QString chooseAndExportTimelinePdf(QWidget* parent, TimelineWidget& timeline, const QString& title) {
  if (!timeline.data()) return {};
  const QString path = QFileDialog::getSaveFileName(
      parent, QStringLiteral("Export PDF"), QStringLiteral("timeline.pdf"), QStringLiteral("PDF documents (*.pdf)"));
  if (path.isEmpty()) return {};
  QString error;
  if (!exportTimelinePdf(timeline, path, title, &error)) {
    QMessageBox::critical(parent, QStringLiteral("Export failed"), error);
    return {};
  }
  return QStringLiteral("Saved %1").arg(path);
}

}  // namespace opscope::ui
