#include "timeline_export.h"

#include <QBuffer>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>

#include "dialog_folder.h"
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
  // One dialog: where, how sharp, which tracks (it took three modal dialogs).
  QDialog dialog(parent);
  dialog.setWindowTitle(QStringLiteral("Export the timeline as PNG"));
  auto* form = new QFormLayout(&dialog);
  auto* path = new QLineEdit(dialogStart(QStringLiteral("timeline.png")));
  path->setMinimumWidth(360);
  auto* browse = new QPushButton(QStringLiteral("Browse…"));
  auto* where = new QHBoxLayout;
  where->addWidget(path, 1);
  where->addWidget(browse);
  form->addRow(QStringLiteral("File"), where);
  auto* scale = new QComboBox;
  scale->addItems({QStringLiteral("1x"), QStringLiteral("2x"), QStringLiteral("3x"), QStringLiteral("4x")});
  scale->setCurrentIndex(1);
  form->addRow(QStringLiteral("Scale"), scale);
  auto* tracks = new QComboBox;
  tracks->addItems({QStringLiteral("Visible part"), QStringLiteral("Whole track list")});
  form->addRow(QStringLiteral("Tracks"), tracks);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
  form->addRow(buttons);
  QObject::connect(browse, &QPushButton::clicked, &dialog, [&] {
    const QString chosen = QFileDialog::getSaveFileName(&dialog, QStringLiteral("Export PNG"), path->text(),
                                                        QStringLiteral("PNG images (*.png)"));
    if (!chosen.isEmpty()) path->setText(chosen);
  });
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
    QString error;
    QString file = path->text().trimmed();
    if (!file.isEmpty() && QFileInfo(file).suffix().isEmpty()) file += QStringLiteral(".png");
    if (file.isEmpty()) error = QStringLiteral("choose a file");
    else if (!exportTimelinePng(timeline, file, scale->currentIndex() + 1, &error, tracks->currentIndex() == 1)) {
      QMessageBox::critical(&dialog, QStringLiteral("Export failed"), error);
      return;
    }
    if (!error.isEmpty()) return;
    path->setText(file);
    dialog.accept();
  });
  if (dialog.exec() != QDialog::Accepted) return {};
  return QStringLiteral("Saved %1").arg(path->text());
}

QString chooseAndExportTimelinePdf(QWidget* parent, TimelineWidget& timeline, const QString& title) {
  if (!timeline.data()) return {};
  const QString path =
      QFileDialog::getSaveFileName(parent, QStringLiteral("Export PDF"), dialogStart(QStringLiteral("timeline.pdf")),
                                   QStringLiteral("PDF documents (*.pdf)"));
  if (path.isEmpty()) return {};
  QString error;
  if (!exportTimelinePdf(timeline, path, title, &error)) {
    QMessageBox::critical(parent, QStringLiteral("Export failed"), error);
    return {};
  }
  return QStringLiteral("Saved %1").arg(path);
}

}  // namespace opscope::ui
