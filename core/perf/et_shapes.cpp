#include "perf/et_shapes.h"
#include "text/json_text.h"

namespace opscope {

namespace {

// "Tensor(c10::BFloat16)" -> "c10::BFloat16"; "" when t is not a tensor type.
std::string tensorElement(const std::string& t) {
  if (t.rfind("Tensor(", 0) != 0 || t.back() != ')') return {};
  return t.substr(7, t.size() - 8);
}

std::vector<int64_t> dimsOf(const nlohmann::ordered_json& shape) {
  std::vector<int64_t> dims;
  if (shape.is_array())
    for (const auto& d : shape)
      if (d.is_number_integer()) dims.push_back(d.get<int64_t>());
  return dims;
}

}  // namespace

OpShapes opShapesFromEtNode(const EtNode& node) {
  OpShapes s;
  const auto shapes = node.inputShapes();
  const auto types = node.inputTypes();
  if (!shapes.is_array()) return s;
  s.dimsText = jsonText(shapes);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const std::string type =
        types.is_array() && i < types.size() && types[i].is_string() ? types[i].get<std::string>() : "";
    std::vector<std::vector<int64_t>> tensors;
    DType dtype = DType::Unknown;
    if (const std::string element = tensorElement(type); !element.empty()) {
      dtype = dtypeFromProfilerName(element);
      std::vector<int64_t> dims = dimsOf(shapes[i]);
      if (!dims.empty()) tensors.push_back(std::move(dims));
    } else if (type.rfind("GenericList[Tensor(", 0) == 0 && shapes[i].is_array()) {
      dtype = dtypeFromProfilerName(tensorElement(type.substr(12, type.find(')') - 12 + 1)));
      for (const auto& t : shapes[i]) tensors.push_back(dimsOf(t));
    }
    s.inputs.push_back(std::move(tensors));
    s.types.push_back(dtype);
  }
  return s;
}

std::map<uint64_t, OpShapes> etOpShapes(const ExecutionTrace& et, const EtLink& link) {
  std::map<uint64_t, OpShapes> out;
  for (const auto& [id, ref] : link.opOfNode)
    if (const EtNode* n = et.node(id)) out.emplace(ref.packed(), opShapesFromEtNode(*n));
  return out;
}

}  // namespace opscope
