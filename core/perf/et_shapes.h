#pragma once
// Shapes for the op models from a linked execution trace: the ET records every op's
// input shapes and types whether or not the Kineto trace was recorded with shapes.
// Only ops the link paired are covered.
#include <map>

#include "et/et_link.h"
#include "perf/op_models.h"

namespace opscope {

// An ET node's inputs as the op models read them: "Tensor(float)" -> its dims and
// dtype, "GenericList[Tensor(...), ...]" -> a tensor list, anything else empty.
OpShapes opShapesFromEtNode(const EtNode& node);
// Packed Kineto op -> shapes of its linked ET node.
std::map<uint64_t, OpShapes> etOpShapes(const ExecutionTrace& et, const EtLink& link);

}  // namespace opscope
