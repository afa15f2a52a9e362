#include "charts/chart_parts.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace opscope::ui::parts {

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

QString durationText(double ns) {
  if (ns >= 1e9) return QString::number(ns / 1e9, 'f', 3) + " s";
  if (ns >= 1e6) return QString::number(ns / 1e6, 'f', 2) + " ms";
  if (ns >= 1e3) return QString::number(ns / 1e3, 'f', 1) + " µs";
  return QString::number(ns, 'f', 0) + " ns";
}

QString percent(double f) { return QString::number(100.0 * f, 'f', 1) + " %"; }

void addTitle(QCustomPlot* plot, int row, const QString& text, const ChartTheme& theme, int pointSize) {
  auto* t = new QCPTextElement(plot, text, QFont(QStringLiteral("Sans"), pointSize, QFont::Bold));
  t->setTextColor(theme.text());
  plot->plotLayout()->addElement(row, 0, t);
}

QCPAxisRect* addRect(QCustomPlot* plot, int row, int col, const ChartTheme& theme) {
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(row, col, rect);
  styleAxisRect(rect, theme);
  return rect;
}

// Horizontal bars, one plottable per bar (each its own colour), first label on top,
// with a value text at the end of each bar.
void horizontalBars(QCPAxisRect* rect, const QStringList& labels, const std::vector<double>& values,
                    const std::vector<QColor>& colors, const QStringList& valueTexts, const QStringList& tips,
                    const QString& axisLabel, const ChartTheme& theme) {
  QCPAxis* keyAxis = rect->axis(QCPAxis::atLeft);
  QCPAxis* valueAxis = rect->axis(QCPAxis::atBottom);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  const int n = static_cast<int>(labels.size());
  double maxValue = 0;
  for (int i = 0; i < n; ++i) {
    const double key = n - i;  // first on top
    ticker->addTick(key, labels[i]);
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    bars->setBrush(colors[static_cast<size_t>(i)]);
    bars->addData(key, values[static_cast<size_t>(i)]);
    bars->setProperty("tips", QStringList{tips.value(i)});
    maxValue = std::max(maxValue, values[static_cast<size_t>(i)]);
    auto* text = new QCPItemText(rect->parentPlot());
    text->setClipToAxisRect(true);
    text->setClipAxisRect(rect);
    text->position->setAxes(valueAxis, keyAxis);
    text->position->setCoords(values[static_cast<size_t>(i)], key);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    text->setPadding(QMargins(5, 0, 0, 0));
    text->setText(valueTexts.value(i));
    text->setColor(theme.text());
    text->setFont(QFont(QStringLiteral("Sans"), 8));
  }
  keyAxis->setTicker(ticker);
  keyAxis->setRange(0.4, n + 0.6);
  keyAxis->grid()->setVisible(false);
  keyAxis->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  // Ticks outside the bars: an inward tick beside a zero-length bar read as a minus sign.
  keyAxis->setTickLength(0, 4);
  keyAxis->setSubTicks(false);
  valueAxis->setRange(0, maxValue > 0 ? maxValue * 1.22 : 1);
  valueAxis->setLabel(axisLabel);
  valueAxis->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  // Every value text ends inside the chart: once the layout knows the rect's width W,
  // the range R satisfies v/R*W + text + pad <= W for every bar.
  const QFontMetrics fm(QFont(QStringLiteral("Sans"), 8));
  std::vector<std::pair<double, int>> ends;
  for (int i = 0; i < n; ++i)
    ends.emplace_back(values[static_cast<size_t>(i)], fm.horizontalAdvance(valueTexts.value(i)) + 12);
  // Long bar names (a kernel's runs to 300 px) squeezed the bars' rect until the value
  // texts ran out of it (an Analysis dock at 1280x720 beside both side docks): once the
  // plot's width is known, names longer than the room the rect leaves them are elided in
  // the middle, keeping room for a 60 px bar and the longest value text; a bar's tooltip
  // keeps its full name. The ticker is rebuilt only when that room changes, then the plot
  // lays out again (queued) with the new margin.
  int longestText = 0, longestLabel = 0;
  for (const auto& e : ends) longestText = std::max(longestText, e.second);
  const QFontMetrics labelFm(keyAxis->tickLabelFont());
  for (const QString& l : labels) longestLabel = std::max(longestLabel, labelFm.horizontalAdvance(l));
  auto builtFor = std::make_shared<int>(-1);  // the name width the ticker holds (INT_MAX: whole names)
  QObject::connect(rect->parentPlot(), &QCustomPlot::afterLayout, rect, [=] {
    QCustomPlot* plot = rect->parentPlot();
    const int room = std::max(60, plot->width() - longestText - 60 - 40);  // 40: ticks, padding, margins
    const int width = room < longestLabel ? room : std::numeric_limits<int>::max();
    if (width != *builtFor) {
      *builtFor = width;
      auto elided = QSharedPointer<QCPAxisTickerText>::create();
      for (int i = 0; i < n; ++i)
        elided->addTick(n - i, width == std::numeric_limits<int>::max()
                                   ? labels[i]
                                   : labelFm.elidedText(labels[i], Qt::ElideMiddle, width));
      keyAxis->setTicker(elided);
      QMetaObject::invokeMethod(
          plot, [plot] { plot->replot(QCustomPlot::rpQueuedReplot); }, Qt::QueuedConnection);
    }
    const double w = rect->width();
    double range = maxValue > 0 ? maxValue * 1.02 : 1;
    for (const auto& [v, text] : ends)
      if (v > 0) range = std::max(range, w > text + 20 ? v * w / (w - text) : v * 3);
    valueAxis->setRange(0, range);
    // A tick label every ~80 px at most: a rect squeezed by long bar names drew
    // "0 2.5 5 7.5 1012.5" into one another.
    valueAxis->ticker()->setTickCount(std::clamp(static_cast<int>(w / 80), 2, 5));
  });
}

// The height below which a chart's labels would overlap; the panel scrolls instead of
// squashing it (see chartMinimumHeight).
void setMinimumChartHeight(QCustomPlot* plot, int px) { plot->setProperty("minHeight", px); }
int barsHeight(int bars) { return 50 + 17 * std::max(1, bars); }  // axis, label, one text line a bar

// A legend in the chart's colours, with no plottables yet.
QCPLegend* themedLegend(const ChartTheme& theme) {
  auto* legend = new QCPLegend;
  legend->setFont(QFont(QStringLiteral("Sans"), 8));
  legend->setTextColor(theme.text());
  legend->setBrush(QColor(theme.background().red(), theme.background().green(), theme.background().blue(), 220));
  legend->setBorderPen(QPen(theme.grid()));
  return legend;
}

namespace {

// Text broken at spaces into lines of at most width characters (a word longer than that
// keeps its own line): a one-line note wider than a laptop dock lost both ends.
QString wrapped(const QString& text, int width) {
  QString out, line;
  for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
      out += line + QLatin1Char('\n');
      line.clear();
    }
    line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
  }
  return out + line;
}

constexpr int kNoteLineChars = 60;  // ~420 px of the chart font: inside a 1280x720 dock

}  // namespace

void emptyNote(QCPAxisRect* rect, const QString& text, const ChartTheme& theme) {
  auto* item = new QCPItemText(rect->parentPlot());
  item->setClipAxisRect(rect);
  item->position->setType(QCPItemPosition::ptAxisRectRatio);
  item->position->setAxisRect(rect);
  item->position->setCoords(0.5, 0.5);
  item->setText(wrapped(text, kNoteLineChars));
  item->setColor(theme.text());
  // Nothing to read off: no axes (an empty memory chart drew a 0-5 scale of nothing),
  // and the note near the top, where a short dock still shows it.
  for (QCPAxis* axis : rect->axes()) axis->setVisible(false);
  item->position->setCoords(0.5, 0.25);
}

// A gradient through evenly spaced stops, in RGB, NaN cells left transparent.
QCPColorGradient gradientThrough(std::initializer_list<QColor> stops) {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  double at = 0;
  const double step = 1.0 / static_cast<double>(std::max<size_t>(1, stops.size() - 1));
  for (const QColor& c : stops) {
    gradient.setColorStopAt(std::min(1.0, at), c);
    at += step;
  }
  gradient.setColorInterpolation(QCPColorGradient::ciRGB);
  gradient.setNanHandling(QCPColorGradient::nhTransparent);
  return gradient;
}

// Viridis (not in Debian's QCustomPlot 2.1): ordered in lightness, readable by the
// colour-blind and in greyscale print.
QCPColorGradient viridis() {
  return gradientThrough({QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c),
                          QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25)});
}

// Blue below the median, white at it, red above (ColorBrewer RdBu): a kernel that runs
// slower on one rank than on the others stands out in either theme.
QCPColorGradient aboveBelow() {
  return gradientThrough({QColor(0x21, 0x66, 0xac), QColor(0x92, 0xc5, 0xde), QColor(0xf7, 0xf7, 0xf7),
                          QColor(0xf4, 0xa5, 0x82), QColor(0xb2, 0x18, 0x2b)});
}

// A colour scale beside rect (layout column 1 of its row), sharing its top and bottom.
void addColorScale(QCustomPlot* plot, int row, QCPAxisRect* rect, QCPColorMap* map, const QString& label,
                   const ChartTheme& theme) {
  auto* scale = new QCPColorScale(plot);
  plot->plotLayout()->addElement(row, 1, scale);
  scale->setType(QCPAxis::atRight);
  scale->setGradient(map->gradient());
  scale->setDataRange(map->dataRange());
  scale->axis()->setLabel(label);
  scale->axis()->setLabelColor(theme.text());
  scale->axis()->setTickLabelColor(theme.text());
  scale->axis()->setBasePen(QPen(theme.text()));
  scale->axis()->setTickPen(QPen(theme.text()));
  scale->axis()->setSubTickPen(QPen(theme.text()));
  map->setColorScale(scale);
  // Two or three labels whatever the scale's height (a 60 px scale piled up nine): a
  // round step of about half the range.
  const double half = map->dataRange().size() / 2;
  if (half > 0) {
    const double decade = std::pow(10.0, std::floor(std::log10(half)));
    const double step = half >= 5 * decade ? 5 * decade : half >= 2 * decade ? 2 * decade : decade;
    auto fixed = QSharedPointer<QCPAxisTickerFixed>::create();
    fixed->setTickStep(step);
    fixed->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    scale->axis()->setTicker(fixed);
  }
  auto* margins = new QCPMarginGroup(plot);
  rect->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
}

// A kernel's name short enough for an axis: the function's last name component without
// return type, namespaces or parameters, plus its first template argument when it has
// one (cutlass::Kernel<cutlass_80_tensorop_s1688gemm_…> is told apart by it), elided.
QString shortOpLabel(const std::string& name, int maxChars) {
  QString s = QString::fromStdString(name);
  s.replace(QStringLiteral("autograd::engine::evaluate_function: "), QString());
  s.remove(QStringLiteral("(anonymous namespace)::"));
  if (s.size() > maxChars) s = QStringLiteral("…") + s.right(maxChars - 1);
  return s;
}

QString shortKernelName(const std::string& name) {
  QString s = QString::fromStdString(name);
  s.remove(QStringLiteral("(anonymous namespace)::"));
  if (s.startsWith(QStringLiteral("void "))) s = s.mid(5);
  const qsizetype paren = s.indexOf(QLatin1Char('('));
  if (paren > 0) s.truncate(paren);
  QString args;
  if (const qsizetype angle = s.indexOf(QLatin1Char('<')); angle > 0) {
    args = s.mid(angle + 1);
    s.truncate(angle);
    int depth = 0;
    qsizetype cut = args.size();
    for (qsizetype i = 0; i < args.size(); ++i) {
      const QChar c = args[i];
      if (c == QLatin1Char('<')) ++depth;
      else if ((c == QLatin1Char('>') && depth-- == 0) || (c == QLatin1Char(',') && depth == 0)) {
        cut = i;
        break;
      }
    }
    args = args.left(cut).trimmed();
    if (const qsizetype colon = args.lastIndexOf(QStringLiteral("::")); colon >= 0 && !args.contains(QLatin1Char('<')))
      args = args.mid(colon + 2);
  }
  if (const qsizetype colon = s.lastIndexOf(QStringLiteral("::")); colon >= 0) s = s.mid(colon + 2);
  if (!args.isEmpty()) s += QLatin1Char('<') + args + QLatin1Char('>');
  if (s.size() > 30) s = s.left(29) + QStringLiteral("…");
  return s;
}

}  // namespace opscope::ui::parts

namespace opscope::ui {

int heatmapCellAt(QCustomPlot* plot, const QPoint& pos, QCPColorMap** found) {
  // Heatmaps by their axis rect: a map's data range spans cell centres, so the outer
  // half of its edge cells is no hit for plottableAt.
  *found = nullptr;
  for (int i = 0; i < plot->plottableCount(); ++i) {
    auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i));
    if (!map || !map->keyAxis()->axisRect()->rect().contains(pos)) continue;
    *found = map;
    const QCPColorMapData* d = map->data();
    int key = -1, value = -1;
    // A map of one cell a side is an empty chart (its range a point: 0/0 in coordToCell).
    if (d->keySize() < 2 || d->valueSize() < 2) return -1;
    d->coordToCell(map->keyAxis()->pixelToCoord(pos.x()), map->valueAxis()->pixelToCoord(pos.y()), &key, &value);
    if (key < 0 || value < 0 || key >= d->keySize() || value >= d->valueSize()) return -1;
    return value * d->keySize() + key;
  }
  return -1;
}

QString chartTipAt(QCustomPlot* plot, const QPoint& pos) {
  QCPColorMap* map = nullptr;
  if (const int cell = heatmapCellAt(plot, pos, &map); map)
    return map->property("tips").toStringList().value(cell);  // empty for -1 or past the tips
  int index = -1;
  QCPAbstractPlottable* p = plot->plottableAt(pos, true, &index);
  if (!p) return {};
  const QStringList tips = p->property("tips").toStringList();
  return index >= 0 && index < tips.size() ? tips[index] : QString();
}

int chartMinimumHeight(const QCustomPlot* plot) { return plot->property("minHeight").toInt(); }

}  // namespace opscope::ui
