#include "charts/chart_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QToolButton>

#include "dialog_folder.h"
#include "save_file.h"

namespace opscope::ui {

bool exportPlotOrData(QCustomPlot* plot, const QString& path, const std::function<std::string(bool json)>& data,
                      int minWidth, QString* error, bool shownDark,
                      const std::function<void(const ChartTheme&)>& redrawIn) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("csv") || suffix == QLatin1String("json")) {
    return saveBytes(path, data(suffix == QLatin1String("json")), error);
  }
  PictureFormat format;
  if (!pictureFormatFromSuffix(path, format)) {
    if (error) *error = QStringLiteral("%1: choose .pdf, .png, .svg, .csv or .json").arg(path);
    return false;
  }
  const int w = std::max(plot->width(), minWidth), h = std::max(plot->height(), 560);
  const bool relight = shownDark && redrawIn;
  if (relight) redrawIn(ChartTheme{false});
  const bool ok = saveChart(plot, path, format, w, h, format == PictureFormat::Png ? 144 : 96, error);
  if (relight) redrawIn(ChartTheme{true});
  return ok;
}

bool pictureFormatFromSuffix(const QString& path, PictureFormat& format) {
  const QString s = QFileInfo(path).suffix().toLower();
  if (s == QLatin1String("pdf")) format = PictureFormat::Pdf;
  else if (s == QLatin1String("png")) format = PictureFormat::Png;
  else if (s == QLatin1String("svg")) format = PictureFormat::Svg;
  else return false;
  return true;
}

bool saveChart(QCustomPlot* plot, const QString& path, PictureFormat format, int width, int height, int dpi,
               QString* error) {
  // Drawn into memory, then written as one file (save_file.h).
  QByteArray bytes;
  QBuffer file(&bytes);
  file.open(QIODevice::WriteOnly);
  const QSize oldSize = plot->size();
  bool ok = true;
  if (format == PictureFormat::Png) {
    const double scale = dpi / 96.0;
    QImage image = plot->toPixmap(width, height, scale).toImage();
    image.setDotsPerMeterX(static_cast<int>(dpi / 0.0254));
    image.setDotsPerMeterY(static_cast<int>(dpi / 0.0254));
    ok = !image.isNull() && image.save(&file, "PNG");
  } else if (format == PictureFormat::Pdf) {
    QPdfWriter writer(&file);
    writer.setCreator(QStringLiteral("opscope"));
    writer.setResolution(96);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setPageSize(QPageSize(QSizeF(width, height) / 96.0, QPageSize::Inch));
    QCPPainter painter;
    ok = painter.begin(&writer);
    if (ok) {
      painter.setMode(QCPPainter::pmVectorized);
      painter.setMode(QCPPainter::pmNoCaching);
      painter.setWindow(0, 0, width, height);
      plot->toPainter(&painter, width, height);
      painter.end();
    }
  } else {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(QStringLiteral("opscope chart"));
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      painter.setMode(QCPPainter::pmVectorized);
      painter.setMode(QCPPainter::pmNoCaching);
      plot->toPainter(&painter, width, height);
      painter.end();
    }
  }
  // toPainter / toPixmap lay the plot out at the export size; restore the widget's.
  if (plot->size() != oldSize) plot->resize(oldSize);
  plot->replot(QCustomPlot::rpQueuedReplot);
  file.close();
  if (!ok) {
    if (error) *error = QStringLiteral("cannot draw the chart into %1").arg(path);
    return false;
  }
  return saveBytes(path, bytes, error);
}

void showExportMenu(QWidget* parent, const QPoint& globalPos, const QString& base,
                    const std::function<bool(const QString& path, QString* error)>& exporter, const char* csvLabel,
                    const char* jsonLabel) {
  QMenu menu(parent);
  const struct {
    const char* label;
    const char* suffix;
  } items[] = {{"Export chart as PDF (vector)…", "pdf"},
               {"Export chart as PNG…", "png"},
               {"Export chart as SVG…", "svg"},
               {csvLabel, "csv"},
               {jsonLabel, "json"}};
  for (const auto& item : items) {
    const QString suffix = QString::fromLatin1(item.suffix);
    menu.addAction(QString::fromUtf8(item.label), parent, [parent, base, suffix, exporter] {
      const QString path =
          QFileDialog::getSaveFileName(parent, QStringLiteral("Export %1").arg(base), dialogStart(base + "." + suffix),
                                       suffix.toUpper() + QStringLiteral(" (*.") + suffix + ")");
      if (path.isEmpty()) return;
      QString error;
      if (!exporter(path, &error)) QMessageBox::warning(parent, QStringLiteral("Export"), error);
    });
  }
  menu.exec(globalPos);
}

QString exportWithDialog(QWidget* parent, const QString& base,
                         const std::function<bool(const QString& path, QString* error)>& exporter) {
  const QStringList filters{QStringLiteral("PDF, vector (*.pdf)"), QStringLiteral("PNG (*.png)"),
                            QStringLiteral("SVG (*.svg)"), QStringLiteral("CSV data (*.csv)"),
                            QStringLiteral("JSON data (*.json)")};
  QString chosen = filters.front();
  QString path = QFileDialog::getSaveFileName(parent, QStringLiteral("Export %1").arg(base),
                                              dialogStart(base + QStringLiteral(".pdf")),
                                              filters.join(QStringLiteral(";;")), &chosen);
  if (path.isEmpty()) return {};
  if (QFileInfo(path).suffix().isEmpty()) {
    const qsizetype dot = chosen.indexOf(QStringLiteral("*."));
    path += chosen.mid(dot + 1, chosen.indexOf(u')', dot) - dot - 1);
  }
  QString error;
  if (!exporter(path, &error)) {
    QMessageBox::warning(parent, QStringLiteral("Export"), error);
    return {};
  }
  return path;
}

QToolButton* makeExportButton(const QString& dataTip, const std::function<void()>& onClick) {
  auto* b = new QToolButton;
  b->setText(QStringLiteral("Export…"));
  b->setToolTip(QStringLiteral("Export the chart (PDF, PNG, SVG) or %1 (CSV, JSON)").arg(dataTip));
  QObject::connect(b, &QToolButton::clicked, b, onClick);
  return b;
}

}  // namespace opscope::ui
