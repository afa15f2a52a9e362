#include "charts/diff_chart.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "timeline/names.h"
#include "timeline/time_view.h"

namespace opscope::ui {

namespace {

// ColorBrewer RdBu ends: slower in B red, faster blue (told apart in greyscale by side).
const QColor kSlower(0xb2, 0x18, 0x2b);
const QColor kFaster(0x21, 0x66, 0xac);

// QString's concatenation: g++ 12 warns (-Wrestrict, a false positive) on
// const char* + std::string&& inlined here.
QString signedDuration(TimeNs ns) {
  return (ns > 0 ? QStringLiteral("+") : QString()) + QString::fromStdString(formatDuration(ns));
}

}  // namespace

void plotDiff(QCustomPlot* plot, const std::vector<const DiffRow*>& rows, const ChartTheme& theme,
              const QString& title) {
  resetPlot(plot, theme);
  auto* heading = new QCPTextElement(plot, title, QFont(QStringLiteral("Sans"), 11, QFont::Bold));
  heading->setTextColor(theme.text());
  plot->plotLayout()->addElement(0, 0, heading);
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(1, 0, rect);
  styleAxisRect(rect, theme);
  QCPAxis* key = rect->axis(QCPAxis::atLeft);
  QCPAxis* value = rect->axis(QCPAxis::atBottom);
  const int n = static_cast<int>(rows.size());
  if (n == 0) {
    auto* note = new QCPItemText(plot);
    note->setClipAxisRect(rect);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setAxisRect(rect);
    note->position->setCoords(0.5, 0.5);
    note->setText(QStringLiteral("no rows differ"));
    note->setColor(theme.text());
    for (QCPAxis* axis : rect->axes()) axis->setVisible(false);  // nothing to read off
    plot->replot();
    return;
  }
  std::vector<std::string> names;
  for (const DiffRow* r : rows) names.push_back(r->shape.empty() ? r->name : r->name + " " + r->shape);
  const QStringList labels = distinctDisplayNames(names, kBarLabelChars);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  double extreme = 0;
  auto* slower = new QCPBars(key, value);
  auto* faster = new QCPBars(key, value);
  QStringList slowerTips, fasterTips;
  for (int i = 0; i < n; ++i) {
    const DiffRow& r = *rows[static_cast<size_t>(i)];
    const double k = n - i;  // largest change on top
    ticker->addTick(k, labels[i]);
    const double ms = static_cast<double>(r.delta()) / 1e6;
    extreme = std::max(extreme, std::abs(ms));
    QString tip = QString::fromStdString(r.name);
    if (!r.shape.empty()) tip += QStringLiteral("\nshapes %1").arg(QString::fromStdString(r.shape));
    if (r.match != DiffRow::Match::kName)
      tip += QStringLiteral("\nmatched by %1 · A: %2 · B: %3")
                 .arg(QString::fromLatin1(matchName(r.match)), QString::fromStdString(joinedNames(r.namesA)),
                      QString::fromStdString(joinedNames(r.namesB)));
    tip += QStringLiteral("\nA: %L1 × %2 · B: %L3 × %4 · %5")
               .arg(r.countA)
               .arg(QString::fromStdString(formatDuration(r.totalA)))
               .arg(r.countB)
               .arg(QString::fromStdString(formatDuration(r.totalB)))
               .arg(signedDuration(r.delta()));
    if (r.countA == 0) tip += QStringLiteral(" (only in B)");
    if (r.countB == 0) tip += QStringLiteral(" (only in A)");
    (ms >= 0 ? slower : faster)->addData(k, ms);
    (ms >= 0 ? slowerTips : fasterTips).append(tip);
  }
  for (auto [bars, color, tips, name] : {std::tuple{slower, kSlower, slowerTips, QStringLiteral("slower in B")},
                                         std::tuple{faster, kFaster, fasterTips, QStringLiteral("faster in B")}}) {
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    bars->setBrush(color);
    bars->setName(name);
    // A bars' data are ordered by key, and keys fall as rows go down: tips go the other way.
    std::reverse(tips.begin(), tips.end());
    bars->setProperty("tips", tips);
  }
  key->setTicker(ticker);
  key->setRange(0.4, n + 0.6);
  key->grid()->setVisible(false);
  key->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  key->setTickLength(0, 4);
  key->setSubTicks(false);
  value->setRange(-extreme * 1.1 - 1e-6, extreme * 1.1 + 1e-6);
  value->setLabel(QStringLiteral("B − A (ms): right, B is slower; left, B is faster"));
  value->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  value->grid()->setZeroLinePen(QPen(theme.text()));
  plot->setProperty("minHeight", 80 + 17 * n);
  plot->replot();
}

}  // namespace opscope::ui
