#include "et/execution_trace.h"

#include "et/chakra_et.h"

#include <algorithm>

#include "io/byte_source.h"
#include "io/json_units.h"
#include "io/output_file.h"
#include "text/json_text.h"

namespace opscope {

namespace {

// Whether Chakra's protobuf reader (et/chakra_et.h) filled the model: its top-level
// "format". A JSON file's own "format" may be anything, a number included (a file
// saying "format": 100 threw out of the summary).
bool chakraEncoded(const ExecutionTrace& et) {
  if (!et.top.is_object()) return false;
  const auto f = et.top.find("format");
  return f != et.top.end() && f->is_string() && f->get_ref<const std::string&>() == "chakra-protobuf";
}

using Json = nlohmann::ordered_json;

// field of the old schema, or the member of the newer {"values", "shapes", "types"}.
Json ioPart(const Json& node, const char* io, const char* member, const char* oldField) {
  if (node.contains(io) && node[io].is_object()) {
    const Json& o = node[io];
    return o.contains(member) ? o[member] : Json::array();
  }
  return node.contains(oldField) ? node[oldField] : Json::array();
}

const Json* attr(const Json& node, std::string_view name) {
  if (!node.contains("attrs") || !node["attrs"].is_array()) return nullptr;
  for (const Json& a : node["attrs"])
    if (a.is_object() && a.contains("name") && a["name"].is_string() && a["name"].get<std::string>() == name &&
        a.contains("value"))
      return &a["value"];
  return nullptr;
}

std::optional<int64_t> integer(const Json* v) {
  if (!v) return std::nullopt;
  if (v->is_number_integer()) return v->get<int64_t>();
  if (v->is_number_unsigned()) return static_cast<int64_t>(v->get<uint64_t>());
  return std::nullopt;
}

}  // namespace

Json EtNode::json() const {
  if (!store || packed.size == 0) return Json::object();
  // Packed by addNode from a parsed object: it unpacks (no exception on these bytes;
  // a block the store cannot inflate gives discarded, shown as an empty object).
  Json j = Json::from_msgpack(store->get(packed), true, false);
  return j.is_discarded() ? Json::object() : j;
}

Json EtNode::inputShapes() const { return ioPart(json(), "inputs", "shapes", "input_shapes"); }
Json EtNode::inputTypes() const { return ioPart(json(), "inputs", "types", "input_types"); }
Json EtNode::outputShapes() const { return ioPart(json(), "outputs", "shapes", "output_shapes"); }
Json EtNode::outputTypes() const { return ioPart(json(), "outputs", "types", "output_types"); }

std::vector<std::pair<std::string, std::string>> EtNode::attributes() const {
  const Json json = this->json();
  std::vector<std::pair<std::string, std::string>> out;
  auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : jsonText(v); };
  for (const char* key : {"op_schema", "seq_id", "scope", "tid", "fw_parent", "fw_tid", "rf_id"})
    if (json.contains(key)) out.emplace_back(key, text(json[key]));
  if (json.contains("attrs") && json["attrs"].is_array())
    for (const Json& a : json["attrs"])
      if (a.is_object() && a.contains("name") && a.contains("value"))
        out.emplace_back(text(a["name"]), text(a["value"]));
  return out;
}

std::optional<size_t> ExecutionTrace::indexOf(int64_t id) const {
  const auto it = std::lower_bound(indexOfId.begin(), indexOfId.end(), id,
                                   [](const std::pair<int64_t, uint32_t>& e, int64_t v) { return e.first < v; });
  if (it == indexOfId.end() || it->first != id) return std::nullopt;
  return it->second;
}

const EtNode* ExecutionTrace::node(int64_t id) const {
  const auto i = indexOf(id);
  return i ? &nodes[*i] : nullptr;
}

namespace {

// Adds one element of "nodes" (index: 1-based position in the array); false with error
// set when it is not a node at all.
bool addNode(ExecutionTrace& et, Json&& n, size_t index, std::string& error) {
  if (!n.is_object()) {
    error = "node " + std::to_string(index) + " of \"nodes\" is not an object";
    return false;
  }
  EtNode node;
  const auto id = integer(n.contains("id") ? &n["id"] : nullptr);
  if (!id) {
    et.problems.push_back({"node " + std::to_string(index) + " of \"nodes\" has no integer \"id\": skipped"});
    return true;
  }
  node.id = *id;
  if (n.contains("name") && n["name"].is_string()) node.name = n["name"].get<std::string>();
  const auto parent =
      integer(n.contains("parent") ? &n["parent"] : (n.contains("ctrl_deps") ? &n["ctrl_deps"] : nullptr));
  node.parent = parent.value_or(-1);
  node.rfId = integer(n.contains("rf_id") ? &n["rf_id"] : attr(n, "rf_id"));
  node.tid = integer(n.contains("tid") ? &n["tid"] : attr(n, "tid")).value_or(0);
  node.isGpu = n.contains("cat");
  std::string bytes;
  Json::to_msgpack(n, bytes);
  node.store = et.store.get();
  node.packed = et.store->add(bytes);
  et.nodes.push_back(std::move(node));
  return true;
}

}  // namespace

namespace {

// Parents that lead back to a node itself (2 -> 3 -> 2) would leave the cycle unreachable
// from any root: every tree walk would silently lose it. Each chain of parents is walked
// once, iteratively (no recursion however long the chain); where a chain comes back to
// a node already on it, that node becomes a root and the cycle is named.
void breakParentCycles(ExecutionTrace& et) {
  enum : uint8_t { kUnseen, kOnPath, kDone };
  std::vector<uint8_t> state(et.nodes.size(), kUnseen);
  std::vector<size_t> path;
  auto parentIndex = [&](size_t i) -> std::optional<size_t> {
    const EtNode& n = et.nodes[i];
    if (n.parent < 0 || n.parent == n.id || n.parent == 0) return std::nullopt;
    return et.indexOf(n.parent);
  };
  for (size_t start = 0; start < et.nodes.size(); ++start) {
    if (state[start] != kUnseen) continue;
    path.clear();
    std::optional<size_t> at = start;
    while (at && state[*at] == kUnseen) {
      state[*at] = kOnPath;
      path.push_back(*at);
      at = parentIndex(*at);
    }
    if (at && state[*at] == kOnPath) {
      EtNode& n = et.nodes[*at];
      et.problems.push_back({"node " + std::to_string(n.id) + " (" + n.name +
                             "): its parents lead back to it (parent " + std::to_string(n.parent) +
                             "); it is treated as a root"});
      n.parent = -1;
    }
    for (size_t i : path) state[i] = kDone;
  }
}

}  // namespace

std::optional<ExecutionTrace> readExecutionTrace(ByteSource& src, std::string& error) {
  ExecutionTrace et;
  bool sawNodes = false;
  try {
    // Node by node: only one node's text is held at a time (see json_units.h for the
    // ceilings), so the DOM of the nodes is the only thing that grows with the file.
    JsonUnitReader reader(src);
    if (reader.peek() != '{') {
      error = "not an execution trace: it is not one JSON object";
      return std::nullopt;
    }
    reader.beginObject();
    std::string key;
    while (reader.nextKey(key)) {
      if (key != "nodes") {
        const std::string_view raw = reader.value();
        et.top[key] = parseJsonUnit<Json>(raw, reader.lastOffset(), reader);
        continue;
      }
      if (reader.peek() != '[') {
        error = "\"nodes\" is not an array";
        return std::nullopt;
      }
      sawNodes = true;
      reader.beginArray();
      size_t index = 0;
      while (reader.nextElement()) {
        const std::string_view raw = reader.value();
        if (!addNode(et, parseJsonUnit<Json>(raw, reader.lastOffset(), reader), ++index, error)) return std::nullopt;
      }
    }
  } catch (const JsonUnitError& e) {
    error = e.message;
    return std::nullopt;
  }
  if (!sawNodes) {
    error = "not an execution trace: no top-level \"nodes\"";
    return std::nullopt;
  }
  if (!finishExecutionTrace(et, error)) return std::nullopt;
  return et;
}

bool addExecutionTraceNode(ExecutionTrace& et, nlohmann::ordered_json node, size_t index, std::string& error) {
  return addNode(et, std::move(node), index, error);
}

namespace {

// The id index, sorted; of nodes sharing an id the first is kept and the later dropped.
void indexNodes(ExecutionTrace& et) {
  auto& index = et.indexOfId;
  index.clear();
  index.reserve(et.nodes.size());
  for (size_t i = 0; i < et.nodes.size(); ++i) index.emplace_back(et.nodes[i].id, static_cast<uint32_t>(i));
  std::sort(index.begin(), index.end());
  std::vector<bool> dropped(et.nodes.size(), false);
  bool any = false;
  for (size_t k = 1; k < index.size(); ++k)
    if (index[k].first == index[k - 1].first) dropped[index[k].second] = any = true;
  if (any) {
    size_t kept = 0;
    for (size_t i = 0; i < et.nodes.size(); ++i) {
      if (dropped[i]) {
        const EtNode& n = et.nodes[i];
        et.problems.push_back({"node id " + std::to_string(n.id) +
                               " appears more than once (a merged multi-rank trace?): the later node \"" + n.name +
                               "\" is dropped"});
        continue;
      }
      if (kept != i) et.nodes[kept] = std::move(et.nodes[i]);
      ++kept;
    }
    et.nodes.resize(kept);
    index.clear();
    for (size_t i = 0; i < et.nodes.size(); ++i) index.emplace_back(et.nodes[i].id, static_cast<uint32_t>(i));
    std::sort(index.begin(), index.end());
  }
  index.shrink_to_fit();
}

}  // namespace

bool finishExecutionTrace(ExecutionTrace& et, std::string& error) {
  et.store->finish();
  indexNodes(et);
  et.nodes.shrink_to_fit();
  if (et.top.contains("schema") && et.top["schema"].is_string()) et.schema = et.top["schema"].get<std::string>();
  for (EtNode& n : et.nodes) {
    if (n.parent < 0 || n.parent == n.id || n.parent == 0) continue;
    if (!et.indexOf(n.parent)) {
      et.problems.push_back({"node " + std::to_string(n.id) + " (" + n.name + "): parent " + std::to_string(n.parent) +
                             " is not in the trace; it is treated as a root"});
      n.parent = -1;
    }
  }
  breakParentCycles(et);
  if (et.nodes.empty()) {
    error = "the execution trace has no nodes";
    return false;
  }
  return true;
}

std::optional<ExecutionTrace> parseExecutionTrace(std::string_view text, std::string& error) {
  auto src = ByteSource::fromMemory(std::string(text));
  if (looksLikeChakraEt(peekHead(*src, 256))) return readChakraEt(*src, error);  // Chakra's protobuf
  return readExecutionTrace(*src, error);
}

std::optional<ExecutionTrace> loadExecutionTrace(ByteSource& src, std::string& error) {
  // Checked on the first bytes before reading further: a multi-GB Kineto trace opened
  // here by mistake is refused at once.
  const std::string head = peekHead(src, 1 << 16);
  if (looksLikeChakraEt(head)) return readChakraEt(src, error);
  if (!looksLikeExecutionTrace(head)) {
    if (!src.error().empty()) error = src.error();
    else error = "not an execution trace: no \"schema\" and \"nodes\" at the top of the file (a Kineto trace?)";
    return std::nullopt;
  }
  return readExecutionTrace(src, error);
}

std::optional<ExecutionTrace> loadExecutionTrace(const std::string& path, std::string& error) {
  auto src = ByteSource::open(path, error);
  if (!src) return std::nullopt;
  protectInput(path);
  return loadExecutionTrace(*src, error);
}

bool looksLikeExecutionTrace(std::string_view head) {
  // A key is a quoted name followed by a colon; "schemaVersion" (Kineto) is not "schema".
  auto hasKey = [&](std::string_view key) {
    for (size_t pos = head.find(key); pos != std::string_view::npos; pos = head.find(key, pos + 1)) {
      size_t k = pos + key.size();
      while (k < head.size() && (head[k] == ' ' || head[k] == '\n' || head[k] == '\r' || head[k] == '\t')) ++k;
      if (k < head.size() && head[k] == ':') return true;
    }
    return false;
  };
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '{') return false;
  return hasKey("\"nodes\"") && hasKey("\"schema\"") && !hasKey("\"traceEvents\"");
}

std::string etSummaryJson(const ExecutionTrace& et, const std::string& file) {
  std::map<std::string, uint64_t> byName;
  std::map<int64_t, uint64_t> threads;
  uint64_t withRf = 0, gpu = 0;
  for (const EtNode& n : et.nodes) {
    if (n.isGpu) {
      ++gpu;
      continue;
    }
    if (n.isAnnotation()) continue;
    ++byName[n.name];
    ++threads[n.tid];
    if (n.rfId) ++withRf;
  }
  std::vector<std::pair<std::string, uint64_t>> ops(byName.begin(), byName.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  Json j;
  j["file"] = file;
  j["format"] = "pytorch-et";  // the contract's name for an execution trace's summary, whatever its encoding
  // Added: how the file encodes it (Chakra's protobuf traces load into the same model).
  const bool chakra = chakraEncoded(et);
  j["encoding"] = chakra ? "chakra-protobuf" : "json";
  j["schema"] = et.schema;
  j["nodes"] = et.nodes.size();
  if (et.top.contains("pid")) j["pid"] = et.top["pid"];
  j["threads"] = threads.size();
  j["nodes_with_rf_id"] = withRf;
  j["gpu_nodes"] = gpu;  // ET+ files written by opscope link
  j["ops_by_name"] = Json::array();
  for (const auto& [name, count] : ops) j["ops_by_name"].push_back({{"name", name}, {"count", count}});
  j["problems"] = Json::array();
  for (const EtProblem& p : et.problems) j["problems"].push_back(p.what);
  return jsonText(j, 2) + "\n";
}

std::string etSummaryText(const ExecutionTrace& et, const std::string& file) {
  std::map<std::string, uint64_t> byName;
  for (const EtNode& n : et.nodes)
    if (!n.isGpu && !n.isAnnotation()) ++byName[n.name];
  std::vector<std::pair<std::string, uint64_t>> ops(byName.begin(), byName.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  // Chakra's protobuf traces (et/chakra_et.h) are read into the same model; say which.
  const bool chakra = chakraEncoded(et);
  std::string out = file +
                    (chakra ? ": Chakra execution trace (protobuf), schema " : ": PyTorch execution trace, schema ") +
                    (et.schema.empty() ? "?" : et.schema) + ", " + std::to_string(et.nodes.size()) + " nodes\n";
  for (size_t i = 0; i < ops.size() && i < 15; ++i)
    out += "  " + std::to_string(ops[i].second) + "  " + ops[i].first + "\n";
  for (const EtProblem& p : et.problems) out += "note: " + p.what + "\n";
  return out;
}

}  // namespace opscope
