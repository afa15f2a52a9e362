#include "et/chakra_et.h"

#include <cstdint>
#include <string>

#include "et_def.pb.h"
#include "io/input_limits.h"

namespace opscope {

namespace {

using Json = nlohmann::ordered_json;
using chakra::AttributeProto;

// A Chakra file holds one message per node: read whole, bounded like a JSON trace's text.
constexpr uint64_t kMaxChakraBytes = uint64_t{4} << 30;

// The varint at bytes[at], advancing at; false when cut or longer than 64 bits.
bool varint(std::string_view bytes, size_t& at, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && at < bytes.size(); shift += 7) {
    const auto b = static_cast<unsigned char>(bytes[at++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

template <class List>
Json listOf(const List& l) {
  Json a = Json::array();
  for (const auto& v : l.values()) a.push_back(v);
  return a;
}

// {"name", "type", "value"} as the JSON schema writes an attribute.
Json attributeJson(const AttributeProto& a) {
  Json j;
  j["name"] = a.name();
  switch (a.value_case()) {
    case AttributeProto::kDoubleVal:
      j["type"] = "double", j["value"] = a.double_val();
      break;
    case AttributeProto::kFloatVal:
      j["type"] = "float", j["value"] = a.float_val();
      break;
    case AttributeProto::kInt32Val:
      j["type"] = "int32", j["value"] = a.int32_val();
      break;
    case AttributeProto::kInt64Val:
      j["type"] = "int64", j["value"] = a.int64_val();
      break;
    case AttributeProto::kUint32Val:
      j["type"] = "uint32", j["value"] = a.uint32_val();
      break;
    case AttributeProto::kUint64Val:
      j["type"] = "uint64", j["value"] = a.uint64_val();
      break;
    case AttributeProto::kSint32Val:
      j["type"] = "int32", j["value"] = a.sint32_val();
      break;
    case AttributeProto::kSint64Val:
      j["type"] = "int64", j["value"] = a.sint64_val();
      break;
    case AttributeProto::kBoolVal:
      j["type"] = "bool", j["value"] = a.bool_val();
      break;
    case AttributeProto::kStringVal:
      j["type"] = "string", j["value"] = a.string_val();
      break;
    case AttributeProto::kDoubleList:
      j["type"] = "double_list", j["value"] = listOf(a.double_list());
      break;
    case AttributeProto::kFloatList:
      j["type"] = "float_list", j["value"] = listOf(a.float_list());
      break;
    case AttributeProto::kInt32List:
      j["type"] = "int32_list", j["value"] = listOf(a.int32_list());
      break;
    case AttributeProto::kInt64List:
      j["type"] = "int64_list", j["value"] = listOf(a.int64_list());
      break;
    case AttributeProto::kUint32List:
      j["type"] = "uint32_list", j["value"] = listOf(a.uint32_list());
      break;
    case AttributeProto::kUint64List:
      j["type"] = "uint64_list", j["value"] = listOf(a.uint64_list());
      break;
    case AttributeProto::kBoolList:
      j["type"] = "bool_list", j["value"] = listOf(a.bool_list());
      break;
    case AttributeProto::kStringList:
      j["type"] = "string_list", j["value"] = listOf(a.string_list());
      break;
    default:
      j["type"] = "bytes", j["value"] = nullptr;
      break;
  }
  return j;
}

// An IOInfo field: the JSON text it holds, parsed; the text itself when it is not JSON.
Json parsedText(const std::string& text) {
  if (text.empty()) return Json::array();
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? Json(text) : j;
}

Json ioJson(const chakra::IOInfo& io) {
  return Json{
      {"values", parsedText(io.values())}, {"shapes", parsedText(io.shapes())}, {"types", parsedText(io.types())}};
}

}  // namespace

bool looksLikeChakraEt(std::string_view head) {
  if (head.empty() || head[0] == '{' || head[0] == '[') return false;
  size_t at = 0;
  uint64_t len = 0;
  if (!varint(head, at, len) || len == 0 || at >= head.size()) return false;
  const unsigned char tag = static_cast<unsigned char>(head[at]);
  if (tag != 0x0a && tag != 0x12) return false;  // GlobalMetadata: version, or an attr
  return head.substr(at, 24).find("schema") != std::string_view::npos ||
         (tag == 0x0a && head.size() > at + 2 && head[at + 2] >= '0' && head[at + 2] <= '9');
}

std::optional<ExecutionTrace> readChakraEt(ByteSource& src, std::string& error) {
  std::string bytes;
  char buf[1 << 16];
  for (size_t n; (n = src.read(buf, sizeof buf)) > 0;) {
    bytes.append(buf, n);
    if (bytes.size() > kMaxChakraBytes) {
      error = "Chakra execution trace: larger than 4 GiB";
      return std::nullopt;
    }
  }
  if (!src.error().empty()) {
    error = src.error();
    return std::nullopt;
  }
  ExecutionTrace et;
  size_t at = 0, index = 0;
  bool sawMetadata = false;
  while (at < bytes.size()) {
    const size_t start = at;
    uint64_t len = 0;
    if (!varint(bytes, at, len) || len > bytes.size() - at) {
      error = "Chakra execution trace: message " + std::to_string(index + 1) + " at byte " + std::to_string(start) +
              " is cut short (its length runs past the end of the file)";
      return std::nullopt;
    }
    const std::string_view msg(bytes.data() + at, static_cast<size_t>(len));
    at += static_cast<size_t>(len);
    if (!sawMetadata) {
      chakra::GlobalMetadata meta;
      if (!meta.ParseFromArray(msg.data(), static_cast<int>(msg.size()))) {
        error = "Chakra execution trace: the global metadata at byte " + std::to_string(start) + " does not decode";
        return std::nullopt;
      }
      sawMetadata = true;
      if (!meta.version().empty()) et.top["schema"] = meta.version();
      for (const AttributeProto& a : meta.attr()) et.top[a.name()] = attributeJson(a)["value"];
      continue;
    }
    chakra::Node n;
    if (!n.ParseFromArray(msg.data(), static_cast<int>(msg.size()))) {
      error = "Chakra execution trace: node message " + std::to_string(index + 1) + " at byte " +
              std::to_string(start) + " does not decode";
      return std::nullopt;
    }
    Json j;
    j["id"] = n.id();
    j["name"] = n.name();
    j["type"] = chakra::NodeType_Name(n.type());
    // Chakra's ctrl_deps are dependency edges (the node before, a collective's
    // predecessor), not the enclosing op PyTorch's JSON writes there: kept under a key of
    // their own, so no node gets a parent it does not have.
    j["chakra_ctrl_deps"] = Json(std::vector<uint64_t>(n.ctrl_deps().begin(), n.ctrl_deps().end()));
    j["data_deps"] = Json(std::vector<uint64_t>(n.data_deps().begin(), n.data_deps().end()));
    j["start_time_micros"] = n.start_time_micros();
    j["duration_micros"] = n.duration_micros();
    j["inputs"] = ioJson(n.inputs());
    j["outputs"] = ioJson(n.outputs());
    Json attrs = Json::array();
    for (const AttributeProto& a : n.attr()) attrs.push_back(attributeJson(a));
    j["attrs"] = std::move(attrs);
    if (!addExecutionTraceNode(et, std::move(j), ++index, error)) return std::nullopt;
  }
  if (!sawMetadata) {
    error = "Chakra execution trace: empty";
    return std::nullopt;
  }
  if (!et.top.contains("schema")) et.top["schema"] = "chakra";
  et.top["format"] = "chakra-protobuf";
  if (!finishExecutionTrace(et, error)) return std::nullopt;
  return et;
}

}  // namespace opscope
