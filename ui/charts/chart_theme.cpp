#include "charts/chart_theme.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QHash>

namespace opscope::ui {

namespace {

// Text that does not fit is cut at the end, never clipped in the middle of a letter: a
// chart's titles fit the plot's width, axis titles their axis' length (a ranks heatmap
// in a laptop dock read "eration wall time (ms)"). The full text is kept in a property
// so a later fit (a wider dock) shows more of it again.
// A line broken at spaces into lines of at most room pixels.
QStringList wrapped(const QString& line, const QFontMetrics& fm, int room) {
  QStringList out;
  QString current;
  for (const QString& word : line.split(QLatin1Char(' '))) {
    const QString tried = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
    if (!current.isEmpty() && fm.horizontalAdvance(tried) > room) {
      out << current;
      current = word;
    } else {
      current = tried;
    }
  }
  out << current;
  return out;
}

QString fitted(QObject* holder, const QString& now, const QFont& font, int room) {
  QString full = holder->property("fullText").toString();
  if (full.isEmpty() || now != holder->property("shownText").toString()) full = now;  // new text
  QStringList lines = full.split(QLatin1Char('\n'));
  const QFontMetrics fm(font);
  if (holder->property("wraps").toBool()) {  // messages: every word shown
    QStringList all;
    for (const QString& line : lines) all << wrapped(line, fm, std::max(20, room));
    lines = all;
  }
  for (QString& line : lines) line = fm.elidedText(line, Qt::ElideRight, std::max(20, room));
  const QString shown = lines.join(QLatin1Char('\n'));
  holder->setProperty("fullText", full);
  holder->setProperty("shownText", shown);
  return shown;
}

void fitTexts(QCustomPlot* plot) {
  // After the layout step: every element's rect is the one it is drawn in. A message
  // wrapped onto more (or fewer) lines than the layout gave it room for is laid out
  // again (queued): a one-rank Ranks tab drew its four wrapped lines in the height of
  // two, cutting the first and the last.
  bool relayout = false;
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {  // nested grids too
    if (!e) continue;                                               // an empty cell
    if (auto* t = qobject_cast<QCPTextElement*>(e)) {
      // Its text's width would otherwise be the plot's minimum width (the dock scrolled
      // sideways instead of the title being cut).
      t->setMinimumSize(20, 0);
      const qsizetype linesBefore = t->text().count(QLatin1Char('\n'));
      t->setText(fitted(t, t->text(), t->font(), t->outerRect().width() - 8));
      relayout |= t->text().count(QLatin1Char('\n')) != linesBefore;
    } else if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
      QCPAxis* axis = scale->axis();
      const bool vertical = axis->axisType() == QCPAxis::atLeft || axis->axisType() == QCPAxis::atRight;
      const int room = vertical ? scale->outerRect().height() : scale->outerRect().width();
      if (!axis->label().isEmpty() && room > 0) axis->setLabel(fitted(axis, axis->label(), axis->labelFont(), room));
      // Tick labels at least ~28 px apart: a short scale's numbers never overlap.
      if (room > 0) axis->ticker()->setTickCount(std::max(2, room / 28));
    }
  }
  for (QCPAxisRect* rect : plot->axisRects())
    for (QCPAxis* axis : rect->axes()) {
      if (axis->label().isEmpty()) continue;
      const bool vertical = axis->axisType() == QCPAxis::atLeft || axis->axisType() == QCPAxis::atRight;
      const int room = vertical ? rect->height() : rect->width();
      if (room > 0) axis->setLabel(fitted(axis, axis->label(), axis->labelFont(), room));
    }
  if (relayout)
    QMetaObject::invokeMethod(
        plot, [plot] { plot->replot(QCustomPlot::rpQueuedReplot); }, Qt::QueuedConnection);
}

// Legends laid out in as many columns as the plot's width holds (a legend of four
// columns set the plot's minimum width to 800 px, and a laptop dock clipped it).
void fitLegends(QCustomPlot* plot) {
  for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
    auto* legend = e ? qobject_cast<QCPLegend*>(e) : nullptr;
    if (!legend || legend->itemCount() == 0 || legend->fillOrder() != QCPLayoutGrid::foColumnsFirst) continue;
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)  // cells of the grid may be empty
      if (QCPAbstractLegendItem* item = legend->item(i))
        widest = std::max(widest, item->minimumOuterSizeHint().width() + legend->columnSpacing());
    const int wanted = legend->property("wrapAsked").isValid() ? legend->property("wrapAsked").toInt() : legend->wrap();
    legend->setProperty("wrapAsked", wanted);
    const int fits = std::clamp((plot->width() - 20) / widest, 1, std::max(1, wanted));
    if (fits != legend->wrap()) {
      legend->setWrap(fits);
      legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
  }
}

}  // namespace

void resetPlot(QCustomPlot* plot, const ChartTheme& theme) {
  if (!plot->property("fitsTexts").toBool()) {
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { fitLegends(plot); });
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] { fitTexts(plot); });
    plot->setProperty("fitsTexts", true);
  }
  plot->clearPlottables();
  plot->clearItems();
  plot->plotLayout()->clear();  // deletes every axis rect, legend and title
  plot->setBackground(theme.background());
  plot->setAntialiasedElements(QCP::aeAll);
  plot->setNoAntialiasingOnDrag(true);
  plot->setAutoAddPlottableToLegend(false);  // legends are built per chart
  plot->setProperty("minHeight", 0);
}

void showPlotMessage(QCustomPlot* plot, const QString& text, const ChartTheme& theme) {
  resetPlot(plot, theme);
  auto* t = new QCPTextElement(plot, text, QFont(QStringLiteral("Sans"), 10));
  t->setProperty("wraps", true);
  t->setTextColor(theme.text());
  plot->plotLayout()->addElement(0, 0, t);
  plot->replot();
}

void styleAxisRect(QCPAxisRect* rect, const ChartTheme& theme) {
  for (QCPAxis* axis : rect->axes()) {
    axis->setBasePen(QPen(theme.text()));
    axis->setTickPen(QPen(theme.text()));
    axis->setSubTickPen(QPen(theme.text()));
    axis->setTickLabelColor(theme.text());
    axis->setLabelColor(theme.text());
    axis->grid()->setPen(QPen(theme.grid(), 0, Qt::DotLine));
    axis->grid()->setSubGridVisible(false);
  }
  rect->setBackground(theme.background());
}

QColor paletteColor(int index) {
  // Tableau 10 then its light variants: distinct on white and on dark grey.
  static const QColor colors[] = {QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759), QColor(0x76b7b2),
                                  QColor(0x59a14f), QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7),
                                  QColor(0x9c755f), QColor(0xbab0ac), QColor(0xa0cbe8), QColor(0xffbe7d),
                                  QColor(0xff9d9a), QColor(0x8cd17d), QColor(0xb6992d), QColor(0xd4a6c8),
                                  QColor(0x86bcb6), QColor(0xf1ce63), QColor(0xd37295), QColor(0x79706e)};
  constexpr int n = sizeof colors / sizeof colors[0];
  return colors[((index % n) + n) % n];
}

QColor classColor(const QString& cls) {
  // Every class of the built-in table (resources/analysis/kernel_classes.json) and every
  // step part has its own colour; classes from user rules fall back to the palette.
  static const QHash<QString, QRgb> fixed = {{"gemm", 0x4e79a7},
                                             {"gemv", 0xa0cbe8},
                                             {"elementwise", 0xf28e2b},
                                             {"reduce", 0x59a14f},
                                             {"embedding fwd", 0xe15759},
                                             {"embedding bwd", 0xff9d9a},
                                             {"memcpy", 0x76b7b2},
                                             {"memset", 0xb6992d},
                                             {"concat", 0xedc948},
                                             {"nccl", 0xb07aa1},
                                             {"conv", 0x9c755f},
                                             {"softmax", 0xff9da7},
                                             {"norm", 0x8cd17d},
                                             {"transpose", 0xd4a6c8},
                                             {"pool", 0x499894},
                                             {"attention", 0xd37295},
                                             {"index", 0x17becf},
                                             {"optimizer", 0x8c564b},
                                             {"sort", 0xaec7e8},
                                             {"scan", 0x9467bd},
                                             {"fused (triton)", 0xc49c94},
                                             {"other", 0xbab0ac},
                                             // Step parts (overview).
                                             {"kernel", 0x4e79a7},
                                             {"communication", 0xb07aa1},
                                             {"runtime", 0xffbe7d},
                                             {"data loading", 0xf1ce63},
                                             {"cpu", 0x9c755f},
                                             {"idle", 0xc8c8c8}};
  const auto it = fixed.find(cls);
  if (it != fixed.end()) return QColor(*it);
  return paletteColor(static_cast<int>(qHash(cls) % 20u));
}

namespace {

// The model families runPrediction names (core/perf/op_models.cpp, conv_models.cpp,
// collective_models.cpp), in a fixed order: one colour each. A family's variants
// ("gemm roofline (tf32)", "memory-bound (batch norm)", "collective all_to_all") keep
// its colour and take another marker.
const QStringList& knownFamilies() {
  static const QStringList families = {QStringLiteral("gemm roofline"),
                                       QStringLiteral("memory-bound"),
                                       QStringLiteral("sum of sub-ops"),
                                       QStringLiteral("PCIe copy"),
                                       QStringLiteral("gemm microbenchmark"),
                                       QStringLiteral("convolution roofline"),
                                       QStringLiteral("collective"),
                                       QStringLiteral("attention roofline"),
                                       QStringLiteral("convolution microbenchmark"),
                                       QStringLiteral("TBE forward"),
                                       QStringLiteral("TBE backward")};
  return families;
}

// Family and variant: "memory-bound (pooling)" -> ("memory-bound", "(pooling)").
std::pair<QString, QString> splitModel(const QString& model) {
  if (model.startsWith(QStringLiteral("collective "))) return {QStringLiteral("collective"), model.mid(11)};
  const auto paren = model.indexOf(QStringLiteral(" ("));
  if (paren < 0) return {model, QString()};
  return {model.left(paren), model.mid(paren + 1)};
}

int modelIndex(const QString& model) {
  const QString family = splitModel(model).first;
  const auto i = knownFamilies().indexOf(family);
  return i >= 0 ? static_cast<int>(i) : static_cast<int>(knownFamilies().size() + qHash(family) % 7u);
}

int variantIndex(const QString& model) {
  static const QStringList variants = {QString(),
                                       QStringLiteral("(tf32)"),
                                       QStringLiteral("(batch norm)"),
                                       QStringLiteral("(pooling)"),
                                       QStringLiteral("(embedding bag)"),
                                       QStringLiteral("all_reduce"),
                                       QStringLiteral("all_gather"),
                                       QStringLiteral("reduce_scatter"),
                                       QStringLiteral("all_to_all"),
                                       QStringLiteral("broadcast"),
                                       QStringLiteral("reduce"),
                                       QStringLiteral("send_recv"),
                                       QStringLiteral("(sgd)"),
                                       QStringLiteral("(rowwise adagrad)")};
  const QString v = splitModel(model).second;
  // Triton kernels are variants of two families: the marker free in both (gemm roofline
  // holds 0, 1 and attention's 3; memory-bound 1, 3, 4, 5 and convolution
  // microbenchmark's 6, once its family's index is added).
  if (v == QStringLiteral("(triton)")) return 6;
  const auto i = variants.indexOf(v);
  if (i < 0) return static_cast<int>(1 + qHash(v) % 6u);
  return i >= 5 && i <= 11 ? static_cast<int>(i - 5) : static_cast<int>(i);  // collective kinds: shapes from the first
}

}  // namespace

QColor modelColor(const QString& model, bool dark) {
  // Okabe & Ito (2008): blue, orange, bluish green, vermillion, reddish purple, sky
  // blue, then black (light theme) or yellow (dark theme) where it stands out.
  static const QRgb okabeIto[] = {0x0072b2, 0xe69f00, 0x009e73, 0xd55e00, 0xcc79a7, 0x56b4e9, 0x000000};
  const int i = modelIndex(model) % 7;
  if (i == 6) return dark ? QColor(QRgb(0xf0e442)) : QColor(Qt::black);
  if (i == 0 && dark) return QColor(QRgb(0x3d9be0));  // the deep blue is too dark on dark grey
  return QColor(okabeIto[i]);
}

int modelShapeIndex(const QString& model) {
  // Families past the seventh share a colour with one of the first seven: their markers
  // start further on, away from that family's own variants (attention roofline, on
  // gemm roofline's blue, three on; convolution microbenchmark, on memory-bound's
  // orange, five on, past its batch norm, pooling and embedding bag variants; TBE
  // forward, on sum of sub-ops' green, one on; TBE backward's sgd and rowwise adagrad,
  // on PCIe copy's vermillion, land on the two markers before it).
  static const int laterOffset[] = {3, 5, 1, 0};
  const int family = modelIndex(model);
  const int later = family - 7;
  const int offset = later >= 0 && later < 4 ? laterOffset[later] : 0;
  return (family + variantIndex(model) + offset) % 7;
}

}  // namespace opscope::ui
