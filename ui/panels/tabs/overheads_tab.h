#pragma once
// The Overheads tab: the T1-T5 histograms over their statistics, with the profiler's
// costs the user may set (estimated from the trace until edited), the op whose T2, T3
// and T5 the chart shows, log counts, and "Save overheads…" (the notebook's file).
#include "panels/analysis_tab.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QTableWidget;

namespace opscope::ui {

class OverheadsTab : public AnalysisTab {
  Q_OBJECT
 public:
  explicit OverheadsTab(const AnalysisKind& kind);
  ChartOptions chartOptions() const override;
  // The costs the user set, when they edited one; else every cost estimated.
  CostOverrides costs() const;
  // A new document: costs are estimated again until edited.
  void resetCosts() { edited_ = false; }

 protected:
  void fill() override;

 private:
  QDoubleSpinBox* cpuCost_ = nullptr;
  QDoubleSpinBox* gpuCost_ = nullptr;
  QDoubleSpinBox* launchCost_ = nullptr;
  QDoubleSpinBox* t1Gap_ = nullptr;
  QCheckBox* logScale_ = nullptr;
  QComboBox* op_ = nullptr;
  QTableWidget* table_ = nullptr;
  bool edited_ = false;
};

}  // namespace opscope::ui
