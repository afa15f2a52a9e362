#pragma once
// The Op kernels tab: the kernel mixes of the dominating ops (a click on a segment marks
// its GPU events), their table, and the kernels of any one op by input shape.
#include <QString>

#include "panels/analysis_tab.h"

class QTabWidget;
class QTableWidget;

namespace opscope::ui {

class OpKernelsView;

class OpKernelsTab : public AnalysisTab {
  Q_OBJECT
 public:
  explicit OpKernelsTab(const AnalysisKind& kind);
  OpKernelsView* opKernels() const { return opKernels_; }
  // Shows the kernels of op (by input shape when byShape) in the lower tab.
  void showOp(const QString& op, bool byShape);
  void setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier) override;

 protected:
  void fill() override;

 private:
  QTableWidget* mixTable_ = nullptr;
  OpKernelsView* opKernels_ = nullptr;
  QTabWidget* mixTabs_ = nullptr;
};

}  // namespace opscope::ui
