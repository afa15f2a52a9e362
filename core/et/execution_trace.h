#pragma once
// PyTorch execution traces (what torch.profiler.ExecutionTraceObserver writes), plain or
// gzipped, in both schema generations:
//   1.0.1 and earlier: per node "inputs" (values), "input_shapes", "input_types",
//     "outputs", "output_shapes", "output_types", "parent", "rf_id", "tid" as fields;
//   1.0.2-chakra.0.0.4 and later: "inputs"/"outputs" as {"values", "shapes", "types"},
//     "ctrl_deps" for the parent, "attrs" as a list of {"name", "type", "value"} holding
//     rf_id, tid, op_schema, ...
// Every node keeps its JSON object as read (packed), so a rewritten file (ET+, see
// et_link.h) loses no field; the accessors below read either generation.
//
// An execution trace is read node by node, each through a JSON DOM that is packed once
// its fields are read; the accessors unpack it (the details of one node at a time).
// One node or top-level value may not exceed kMaxJsonValueBytes (io/input_limits.h).
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "et/et_node_store.h"

namespace opscope {

inline constexpr std::string_view kEtProcessAnnotation = "[pytorch|profiler|execution_trace|process]";
inline constexpr std::string_view kEtThreadAnnotation = "[pytorch|profiler|execution_trace|thread]";

struct EtNode {
  int64_t id = 0;
  int64_t parent = -1;  // "parent" or "ctrl_deps"; -1 when absent
  std::string name;
  std::optional<int64_t> rfId;  // record function id, links to Kineto's op
  int64_t tid = 0;
  bool isGpu = false;  // an ET+ GPU node (it has "cat")
  // The node as read, every field in its order, as MessagePack (nlohmann's to_msgpack)
  // in its trace's deflated store (et_node_store.h): a 10^6-node trace held 2.4 GB as
  // JSON DOMs. The store belongs to the ExecutionTrace the node is in.
  const EtNodeStore* store = nullptr;
  EtNodeStore::Ref packed;

  nlohmann::ordered_json json() const;         // the node as read, unpacked on each call
  nlohmann::ordered_json inputShapes() const;  // [] when absent
  nlohmann::ordered_json inputTypes() const;
  nlohmann::ordered_json outputShapes() const;
  nlohmann::ordered_json outputTypes() const;
  // attrs as name -> value (newer schema), plus op_schema, seq_id, scope... of the old
  // one when present, for the details panel.
  std::vector<std::pair<std::string, std::string>> attributes() const;
  // An annotation node the profiler adds for the process or a thread (Kineto has none).
  bool isAnnotation() const { return name == kEtProcessAnnotation || name == kEtThreadAnnotation; }
};

struct EtProblem {
  std::string what;  // one line: "node 12: parent 9 is not in the trace"
};

struct ExecutionTrace {
  // The nodes' bytes; shared by copies of the trace (nodes point into it).
  std::shared_ptr<EtNodeStore> store = std::make_shared<EtNodeStore>();
  std::string schema;
  nlohmann::ordered_json top;  // every top-level field but "nodes"
  std::vector<EtNode> nodes;   // as in the file
  // (id, index in nodes) by id, built when loading finishes: 16 bytes a node where a
  // std::map took ~48.
  std::vector<std::pair<int64_t, uint32_t>> indexOfId;
  std::optional<size_t> indexOf(int64_t id) const;
  // Oddities that do not stop loading (multi-node jobs, partial traces): duplicate ids
  // (the later node is dropped), parents missing from the trace (the node becomes a
  // root), nodes without an id.
  std::vector<EtProblem> problems;
  const EtNode* node(int64_t id) const;
};

class ByteSource;

// One-line error naming the byte offset or the node when it cannot load. Bytes that look
// like Chakra's protobuf (chakra_et.h) are read as such, the rest as JSON.
std::optional<ExecutionTrace> parseExecutionTrace(std::string_view text, std::string& error);
std::optional<ExecutionTrace> loadExecutionTrace(const std::string& path, std::string& error);
// From a source already open (its head may have been peeked for detection).
std::optional<ExecutionTrace> loadExecutionTrace(ByteSource& src, std::string& error);
// Reads without checking the head first.
std::optional<ExecutionTrace> readExecutionTrace(ByteSource& src, std::string& error);

// For other encodings of the same nodes (chakra_et.h): a node in the JSON form of the
// 1.0.2-chakra schema (index: its position, for messages), then the checks every trace
// gets (parents not in the trace and parent cycles made roots, no nodes an error).
bool addExecutionTraceNode(ExecutionTrace& et, nlohmann::ordered_json node, size_t index, std::string& error);
bool finishExecutionTrace(ExecutionTrace& et, std::string& error);

// Reads the (decompressed) start of a file; true when it holds an execution trace
// (a top-level object with "schema" and "nodes", no "traceEvents"). Content, not name.
bool looksLikeExecutionTrace(std::string_view head);

// `opscope summary --json` of an execution trace: {"format": "pytorch-et", "encoding":
// "json" | "chakra-protobuf", "schema", "nodes", "ops_by_name": [{"name", "count"}], ...}
// ("format" names the summary's kind for every encoding; "encoding" was added).
std::string etSummaryJson(const ExecutionTrace& et, const std::string& file);
std::string etSummaryText(const ExecutionTrace& et, const std::string& file);

}  // namespace opscope
