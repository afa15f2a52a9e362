#pragma once
// Links a PyTorch execution trace with the Kineto trace of the same run, as MLCommons
// Chakra's trace_link does, and writes the joined "ET+" file.
//
// Host ops: an ET node's rf_id is looked up as the Kineto op's "Record function id",
// else its "External id" (older PyTorch numbered both from the same counter); a key is
// used only when the names agree for at least 90 % of the nodes it pairs (a
// coincidence of numbers is not a link). Without a usable key (Kineto traces from PyTorch without
// rf_id) ops are paired in order, within the iteration whose op count is closest to
// (only when the ET's pid is a process whose ops the Kineto trace holds, or when forced),
// the ET's (segmented by an annotation such as ProfilerStep), after detecting a
// constant shift between the two sequences as the reference does; a name is looked
// for within 20 places of its expected position.
// GPU events: through their launch's correlation to the innermost enclosing op that is
// linked; without a launch (HIP launches recorded without correlation ids), through
// the GPU event's own "External id".
// Everything that could not be linked is reported with its reason, never dropped.
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "et/execution_trace.h"
#include "model/trace.h"
#include "text/json_stream.h"

namespace opscope {

struct EtLinkOptions {
  std::string annotation = "ProfilerStep";  // iterations for order matching
  // Pair in order even when the ET's process ("pid") is not one whose ops the Kineto trace
  // holds: two processes' op sequences line up only by chance (`link --force`).
  bool forceOrderAcrossProcesses = false;
};

struct EtLinkIssue {
  enum class Kind { EtNode, KinetoOp, GpuEvent };
  Kind kind = Kind::EtNode;
  std::string name;
  int64_t etId = -1;            // EtNode
  std::optional<EventRef> ref;  // KinetoOp, GpuEvent
  // Why: free text (`reason`), or a static printf pattern with at most one %lld filled
  // with `number`, so that 10^6 unlinked nodes do not each hold their sentence (61 MB).
  std::string reason;
  const char* pattern = nullptr;
  int64_t number = 0;
  std::string reasonText() const;
};
const char* etLinkIssueKindName(EtLinkIssue::Kind k);

struct EtLink {
  std::string method;                                  // how host ops were paired
  std::string segment;                                 // which part of the Kineto trace
  std::map<int64_t, EventRef> opOfNode;                // ET node id -> Kineto op
  std::map<uint64_t, int64_t> nodeOfOp;                // packed Kineto op -> ET node id
  std::map<int64_t, std::vector<EventRef>> gpuOfNode;  // ET node id -> GPU events, by start
  // A deque: 10^6 unlinked nodes must not be copied whole each time the list grows.
  std::deque<EtLinkIssue> issues;
  uint64_t etOps = 0, linkedOps = 0;  // ET nodes that are ops (not annotations, not GPU)
  uint64_t gpuEvents = 0, linkedGpuEvents = 0;
  std::vector<std::string> notes;  // whole-trace remarks ("the Kineto trace has no GPU events")
  // Non-empty: nothing was paired, and why (one line): no id pairs the two traces and
  // they come from different processes, so pairing in order would join two runs.
  std::string refused;
  std::string summaryLine() const;
};

EtLink linkExecutionTrace(const ExecutionTrace& et, const Trace& kineto, const EtLinkOptions& options = {});

// ET+: the execution trace with every node's fields kept, linked CPU nodes gaining
// "ts", "dur", "inclusive_dur", "exclusive_dur" (µs), and one node per linked GPU event
// ("id" above every existing id, "parent" its CPU node, "cat", "name", "ts", "dur",
// "stream", "device", "correlation").
// Written a node at a time (an ET of 10^6 nodes is not built as one value first).
void writeEtPlusJson(const ExecutionTrace& et, const Trace& kineto, const EtLink& link, const TextSink& write);
std::string etPlusJson(const ExecutionTrace& et, const Trace& kineto, const EtLink& link);
// The link's figures and every unlinked item (kind, name, et_id, ts_us, reason) as JSON.
void writeEtLinkIssuesJson(const Trace& kineto, const EtLink& link, const TextSink& write);
std::string etLinkIssuesJson(const Trace& kineto, const EtLink& link);
// The unlinked items as a table, one per line: kind, name, id, reason.
std::string etLinkReportText(const Trace& kineto, const EtLink& link, size_t maxRows = 50);

}  // namespace opscope
