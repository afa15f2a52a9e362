#pragma once
// An execution trace opened beside the loaded Kineto trace, linked with it (see
// core/et/et_link.h), built off the GUI thread and then only read.
#include <QObject>
#include <QString>
#include <memory>
#include <string>

#include "et/et_link.h"
#include "perf/et_shapes.h"
#include "trace_document.h"
#include "worker.h"

namespace opscope::ui {

struct EtDocument {
  std::string path;
  ExecutionTrace et;
  EtLink link;
  std::shared_ptr<const TraceDocument> kineto;  // the trace it is linked with
  // Input shapes of the linked ops, for the prediction pane (see perf/et_shapes.h).
  std::shared_ptr<const std::map<uint64_t, OpShapes>> shapes;
  // The ET node linked with a Kineto op, or nullptr.
  const EtNode* nodeOf(EventRef op) const {
    const auto it = link.nodeOfOp.find(op.packed());
    return it == link.nodeOfOp.end() ? nullptr : et.node(it->second);
  }
};

// Loads and links; null with error (one line) when the file is not an execution trace.
// Whether path holds a PyTorch execution trace (by its first 64 KiB, gzip or not): a
// file opened as a timeline that is one gets an offer to link it instead.
bool isExecutionTraceFile(const std::string& path);

std::shared_ptr<const EtDocument> loadEtDocument(const std::string& path, std::shared_ptr<const TraceDocument> kineto,
                                                 std::string& error);

// File ▸ Open execution trace: loads and links one with the open trace on a worker; the
// latest request wins (a new trace or another link drops a link in flight).
class EtLinker : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  void link(const QString& path, std::shared_ptr<const TraceDocument> kineto);
  void cancel() { job_.supersede(); }
  bool busy() const { return job_.busy(); }

 signals:
  void linked(std::shared_ptr<const opscope::ui::EtDocument> et, const QString& path);
  void failed(const QString& title, const QString& message);

 private:
  LatestJob job_;
};

}  // namespace opscope::ui
