#include "panels/analysis_tab.h"

#include "charts/lazy_plot.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

#include "charts/analysis_charts.h"
#include "panels/adaptive_splitter.h"
#include "panels/table_items.h"

namespace opscope::ui {

const AnalysisResult* AnalysisResults::of(std::string_view kind) const {
  for (const auto& [k, r] : byKind)
    if (k->name == kind) return r.get();
  return nullptr;
}

namespace {

// RFC 4180 lines of the catalog's CSV writers: fields may be quoted, quotes doubled.
std::vector<QStringList> parseCsv(const std::string& text) {
  std::vector<QStringList> rows;
  QStringList row;
  std::string field;
  bool quoted = false, any = false;
  auto endField = [&] {
    row << QString::fromStdString(field);
    field.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    any = true;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      endField();
    } else if (c == '\n') {
      endField();
      rows.push_back(row);
      row.clear();
      any = false;
    } else if (c != '\r') {
      field += c;
    }
  }
  if (any) {
    endField();
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

AnalysisTab::AnalysisTab(const AnalysisKind& kind, QWidget* parent) : QWidget(parent), kind_(kind) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  top_ = new QVBoxLayout;
  top_->setContentsMargins(0, 0, 0, 0);
  v->addLayout(top_);
  plot_ = new LazyPlot;  // most tabs are hidden: no paint buffers until shown
  plot_->setObjectName(QString::fromLatin1(kind.name.data(), static_cast<int>(kind.name.size())));
  plot_->setMinimumHeight(120);
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  plot_->setMouseTracking(true);
  showPlotMessage(plot_, QStringLiteral("No trace loaded"), theme_);
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const QString tip = chartTipAt(plot_, e->pos());
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(e->globalPosition().toPoint(), tip, plot_);
  });
  split_ = new AdaptiveSplitter;
  // A small dock scrolls the chart instead of squashing its labels together.
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(plot_);
  split_->addWidget(scroll);
  split_->setStretchFactor(0, 3);
  v->addWidget(split_, 1);
  csvTable_ = new QTableWidget;
  csvTable_->setObjectName(plot_->objectName() + QStringLiteral("-table"));  // "kernel-stats-table"
  csvTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  csvTable_->setSortingEnabled(true);
  setBelow(csvTable_);
}

void AnalysisTab::setBelow(QWidget* below) {
  if (split_->count() > 1) {
    QWidget* old = split_->widget(1);
    if (old == csvTable_) csvTable_ = nullptr;
    delete old;  // a subclass's constructor replaces the base's table: nothing refers to it yet
  }
  split_->addWidget(below);
  split_->setStretchFactor(1, 1);
  split_->setSizes({600, 200});  // the chart first; the table is for reading off figures
}

void AnalysisTab::setAbove(QWidget* above) { top_->addWidget(above); }

void AnalysisTab::setResults(std::shared_ptr<const TraceDocument> doc, std::shared_ptr<const AnalysisResults> results) {
  doc_ = std::move(doc);
  results_ = std::move(results);
  needsFill_ = needsDraw_ = true;
  if (isVisible()) ensureDrawn();
}

void AnalysisTab::ensureDrawn() {
  if (!hasResults() || !results_->of(kind_.name)) return;
  if (needsFill_) {
    needsFill_ = false;
    fill();
  }
  if (needsDraw_) redraw();
}

void AnalysisTab::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  ensureDrawn();
}

void AnalysisTab::showMessage(const QString& text) { showPlotMessage(plot_, text, theme_); }

void AnalysisTab::setTheme(const ChartTheme& theme) {
  theme_ = theme;
  needsDraw_ = true;
  if (isVisible()) redraw();
}

void AnalysisTab::redraw() {
  if (!hasResults() || !results_->of(kind_.name)) return;
  needsDraw_ = false;
  const QString file = QFileInfo(QString::fromStdString(doc_->path)).fileName();
  drawAnalysisChart(plot_, kind_, result(), *doc_->trace, theme_, results_->scopeLabel, file, chartOptions());
  plot_->setMinimumHeight(std::max(120, chartMinimumHeight(plot_)));
}

std::string AnalysisTab::dataText(bool json) const {
  if (!results_ || !doc_ || !results_->of(kind_.name)) return {};
  return json ? kind_.json(result(), *doc_->trace, results_->request, doc_->path)
              : kind_.csv(result(), *doc_->trace, results_->request);
}

void AnalysisTab::fill() {
  if (!csvTable_) return;
  const std::vector<QStringList> rows = parseCsv(dataText(false));
  csvTable_->setSortingEnabled(false);
  csvTable_->clear();
  csvTable_->setColumnCount(rows.empty() ? 0 : static_cast<int>(rows[0].size()));
  csvTable_->setRowCount(rows.empty() ? 0 : static_cast<int>(rows.size() - 1));
  if (rows.empty()) return;
  csvTable_->setHorizontalHeaderLabels(rows[0]);
  for (size_t r = 1; r < rows.size(); ++r)
    for (int c = 0; c < rows[r].size() && c < csvTable_->columnCount(); ++c) {
      bool number = false;
      const double v = rows[r][c].toDouble(&number);
      csvTable_->setItem(static_cast<int>(r - 1), c,
                         number ? numberItem(v, v == std::floor(v) ? 0 : 3) : textItem(rows[r][c]));
    }
  csvTable_->setSortingEnabled(true);
  csvTable_->resizeColumnsToContents();
}

}  // namespace opscope::ui
