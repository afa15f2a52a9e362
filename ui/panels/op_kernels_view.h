#pragma once
// The kernels of one op name, optionally grouped by the input shapes the profiler
// recorded ("Input Dims"): a tree of shape groups (calls, CPU and GPU time) over the
// kernels each group launched. Computed on a worker: grouping by shape reads every
// call's args, which for a lazily loaded trace means reading them back from the file.
#include <QWidget>
#include <memory>
#include <optional>

#include "analysis/op_kernel_mix.h"
#include "trace_document.h"
#include "worker.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QTreeWidget;

namespace opscope::ui {

class ElidedLabel;

class OpKernelsView : public QWidget {
  Q_OBJECT
 public:
  explicit OpKernelsView(QWidget* parent = nullptr);

  // ops: names offered first (the ops with the most device time); any name can be typed.
  void setScope(std::shared_ptr<const TraceDocument> doc, std::optional<TimeWindow> window, const QStringList& ops);
  void setOp(const QString& op, bool byShape);
  // The kernel-class rules (the built-in ones until set); recomputes with them.
  void setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier);
  bool busy() const { return job_.busy(); }
  const OpKernelTable* table() const { return table_.get(); }
  QTreeWidget* tree() const { return tree_; }

 signals:
  void nameActivated(const QString& name);
  void tableReady();
  void failed(const QString& title, const QString& message);

 private:
  void recompute();
  void onTable(std::shared_ptr<const OpKernelTable> table);

  std::shared_ptr<const TraceDocument> doc_;
  std::shared_ptr<const KernelClassifier> classifier_;
  std::optional<TimeWindow> window_;
  std::shared_ptr<const OpKernelTable> table_;
  LatestJob job_;
  QComboBox* op_ = nullptr;
  QCheckBox* byShape_ = nullptr;
  ElidedLabel* status_ = nullptr;
  QTreeWidget* tree_ = nullptr;
};

}  // namespace opscope::ui
