#pragma once
// The Memory tab: allocated memory per device over time; a click on a curve lists the
// allocations live at that time (the first device's peak until then), and memory by op
// (TensorBoard's "by operator": self and with children).
#include "model/ids.h"
#include "panels/analysis_tab.h"

class QLabel;
class QTabWidget;
class QTableWidget;

namespace opscope::ui {

class MemoryTab : public AnalysisTab {
  Q_OBJECT
 public:
  explicit MemoryTab(const AnalysisKind& kind);
  // The allocations of device (index into the memory timeline's devices) live at t.
  void showLiveMemory(size_t device, TimeNs t);
  QTableWidget* liveTable() const { return live_; }
  QTableWidget* byOpTable() const { return byOp_; }

 protected:
  void fill() override;

 private:
  void fillLive();
  void fillByOp();
  QTableWidget* live_ = nullptr;  // the allocations live at time_
  QTableWidget* byOp_ = nullptr;  // device_'s byOp
  QTabWidget* tables_ = nullptr;
  QLabel* note_ = nullptr;
  size_t device_ = 0;
  TimeNs time_ = 0;
};

}  // namespace opscope::ui
