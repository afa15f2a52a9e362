#include "charts/chart_theme.h"

#include <qcustomplot.h>

#include <QHash>

namespace opscope::ui {

void resetPlot(QCustomPlot* plot, const ChartTheme& theme) {
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
  static const QColor colors[] = {
      QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759), QColor(0x76b7b2), QColor(0x59a14f),
      QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7), QColor(0x9c755f), QColor(0xbab0ac),
      QColor(0xa0cbe8), QColor(0xffbe7d), QColor(0xff9d9a), QColor(0x8cd17d), QColor(0xb6992d),
      QColor(0xd4a6c8), QColor(0x86bcb6), QColor(0xf1ce63), QColor(0xd37295), QColor(0x79706e)};
  constexpr int n = sizeof colors / sizeof colors[0];
  return colors[((index % n) + n) % n];
}

QColor classColor(const QString& cls) {
  // Every class of the built-in table (resources/analysis/kernel_classes.json) and every
  // step part has its own colour; classes from user rules fall back to the palette.
  static const QHash<QString, QRgb> fixed = {
      {"gemm", 0x4e79a7},          {"gemv", 0xa0cbe8},       {"elementwise", 0xf28e2b},   {"reduce", 0x59a14f},
      {"embedding fwd", 0xe15759}, {"embedding bwd", 0xff9d9a}, {"memcpy", 0x76b7b2},     {"memset", 0xb6992d},
      {"concat", 0xedc948},        {"nccl", 0xb07aa1},       {"conv", 0x9c755f},          {"softmax", 0xff9da7},
      {"norm", 0x8cd17d},          {"transpose", 0xd4a6c8},  {"pool", 0x499894},          {"attention", 0xd37295},
      {"index", 0x17becf},         {"optimizer", 0x8c564b},  {"sort", 0xaec7e8},          {"scan", 0x9467bd},
      {"fused (triton)", 0xc49c94}, {"other", 0xbab0ac},
      // Step parts (overview).
      {"kernel", 0x4e79a7},        {"communication", 0xb07aa1}, {"runtime", 0xffbe7d},   {"data loading", 0xf1ce63},
      {"cpu", 0x9c755f},           {"idle", 0xc8c8c8}};
  const auto it = fixed.find(cls);
  if (it != fixed.end()) return QColor(*it);
  return paletteColor(static_cast<int>(qHash(cls) % 20u));
}

QString shortOpName(const QString& name, int maxChars) {
  static const QString prefix = QStringLiteral("autograd::engine::evaluate_function: ");
  QString s = name.startsWith(prefix) ? name.mid(prefix.size()) + QStringLiteral(" (bwd)") : name;
  if (s.startsWith(QLatin1String("torch::autograd::"))) s = s.mid(17);
  return elideMiddle(s, maxChars);
}

QString elideMiddle(const QString& s, int maxChars) {
  if (s.size() <= maxChars || maxChars < 5) return s;
  const int head = (maxChars - 1) * 2 / 3;
  const int tail = maxChars - 1 - head;
  return s.left(head) + QChar(0x2026) + s.right(tail);
}

QString shortKernelName(const QString& name, int maxChars) {
  QString s = name.trimmed();
  if (s.startsWith(QLatin1String("void "))) s = s.mid(5);
  // Cut the parameter list: the first '(' outside template brackets.
  int depth = 0;
  for (int i = 0; i < s.size(); ++i) {
    const QChar c = s[i];
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (c == '(' && depth == 0 && i > 0) {
      s.truncate(i);
      break;
    }
  }
  return elideMiddle(s, maxChars);
}

}  // namespace opscope::ui
