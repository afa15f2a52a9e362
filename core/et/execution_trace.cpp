#include "et/execution_trace.h"

#include <algorithm>

#include "io/byte_source.h"

namespace opscope {

namespace {

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

Json EtNode::inputShapes() const { return ioPart(json, "inputs", "shapes", "input_shapes"); }
Json EtNode::inputTypes() const { return ioPart(json, "inputs", "types", "input_types"); }
Json EtNode::outputShapes() const { return ioPart(json, "outputs", "shapes", "output_shapes"); }
Json EtNode::outputTypes() const { return ioPart(json, "outputs", "types", "output_types"); }

std::vector<std::pair<std::string, std::string>> EtNode::attributes() const {
  std::vector<std::pair<std::string, std::string>> out;
  auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  for (const char* key : {"op_schema", "seq_id", "scope", "tid", "fw_parent", "fw_tid", "rf_id"})
    if (json.contains(key)) out.emplace_back(key, text(json[key]));
  if (json.contains("attrs") && json["attrs"].is_array())
    for (const Json& a : json["attrs"])
      if (a.is_object() && a.contains("name") && a.contains("value")) out.emplace_back(text(a["name"]), text(a["value"]));
  return out;
}

const EtNode* ExecutionTrace::node(int64_t id) const {
  const auto it = indexOfId.find(id);
  return it == indexOfId.end() ? nullptr : &nodes[it->second];
}

std::optional<ExecutionTrace> parseExecutionTrace(std::string_view text, std::string& error) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    error = "not JSON at byte " + std::to_string(e.byte) + " (an execution trace is one JSON object)";
    return std::nullopt;
  }
  if (!j.is_object() || !j.contains("nodes")) {
    error = "not an execution trace: no top-level \"nodes\"";
    return std::nullopt;
  }
  if (!j["nodes"].is_array()) {
    error = "\"nodes\" is not an array";
    return std::nullopt;
  }
  ExecutionTrace et;
  if (j.contains("schema") && j["schema"].is_string()) et.schema = j["schema"].get<std::string>();
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "nodes") et.top[it.key()] = it.value();
  size_t index = 0;
  for (Json& n : j["nodes"]) {
    ++index;
    if (!n.is_object()) {
      error = "node " + std::to_string(index) + " of \"nodes\" is not an object";
      return std::nullopt;
    }
    EtNode node;
    const auto id = integer(n.contains("id") ? &n["id"] : nullptr);
    if (!id) {
      et.problems.push_back({"node " + std::to_string(index) + " of \"nodes\" has no integer \"id\": skipped"});
      continue;
    }
    node.id = *id;
    if (n.contains("name") && n["name"].is_string()) node.name = n["name"].get<std::string>();
    const auto parent = integer(n.contains("parent") ? &n["parent"] : (n.contains("ctrl_deps") ? &n["ctrl_deps"] : nullptr));
    node.parent = parent.value_or(-1);
    node.rfId = integer(n.contains("rf_id") ? &n["rf_id"] : attr(n, "rf_id"));
    node.tid = integer(n.contains("tid") ? &n["tid"] : attr(n, "tid")).value_or(0);
    node.isGpu = n.contains("cat");
    if (et.indexOfId.count(node.id)) {
      et.problems.push_back({"node id " + std::to_string(node.id) + " appears more than once (a merged multi-rank "
                             "trace?): the later node \"" + node.name + "\" is dropped"});
      continue;
    }
    node.json = std::move(n);
    et.indexOfId.emplace(node.id, et.nodes.size());
    et.nodes.push_back(std::move(node));
  }
  for (EtNode& n : et.nodes) {
    if (n.parent < 0 || n.parent == n.id || n.parent == 0) continue;
    if (!et.indexOfId.count(n.parent)) {
      et.problems.push_back({"node " + std::to_string(n.id) + " (" + n.name + "): parent " + std::to_string(n.parent) +
                             " is not in the trace; it is treated as a root"});
      n.parent = -1;
    }
  }
  if (et.nodes.empty()) {
    error = "the execution trace has no nodes";
    return std::nullopt;
  }
  return et;
}

std::optional<ExecutionTrace> loadExecutionTrace(const std::string& path, std::string& error) {
  auto src = ByteSource::open(path, error);
  if (!src) return std::nullopt;
  // Checked on the first bytes before reading a whole file into a DOM: a multi-GB Kineto
  // trace opened here by mistake must not be parsed whole.
  std::string text = readUpTo(*src, 1 << 16);
  if (!looksLikeExecutionTrace(text)) {
    error = "not an execution trace: no \"schema\" and \"nodes\" at the top of the file (a Kineto trace?)";
    return std::nullopt;
  }
  text += readRest(*src);
  if (!src->error().empty()) error = src->error();
  else if (src->truncated()) error = "the gzip stream ends early (truncated file)";
  if (!error.empty()) return std::nullopt;
  return parseExecutionTrace(text, error);
}

std::string fileHead(const std::string& path, size_t bytes, std::string& error) {
  auto src = ByteSource::open(path, error);
  return src ? readUpTo(*src, bytes) : std::string();
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
  j["format"] = "pytorch-et";
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
  return j.dump(2) + "\n";
}

std::string etSummaryText(const ExecutionTrace& et, const std::string& file) {
  std::map<std::string, uint64_t> byName;
  for (const EtNode& n : et.nodes)
    if (!n.isGpu && !n.isAnnotation()) ++byName[n.name];
  std::vector<std::pair<std::string, uint64_t>> ops(byName.begin(), byName.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out = file + ": PyTorch execution trace, schema " + (et.schema.empty() ? "?" : et.schema) + ", " +
                    std::to_string(et.nodes.size()) + " nodes\n";
  for (size_t i = 0; i < ops.size() && i < 15; ++i) out += "  " + std::to_string(ops[i].second) + "  " + ops[i].first + "\n";
  for (const EtProblem& p : et.problems) out += "note: " + p.what + "\n";
  return out;
}

}  // namespace opscope
