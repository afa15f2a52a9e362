#pragma once
// MLCommons Chakra's protobuf execution traces (`.et`: what Chakra's converter writes
// from PyTorch execution traces; resources/chakra/et_def.proto): a varint-length-prefixed
// GlobalMetadata message, then one per Node. Each node becomes the JSON form of the
// 1.0.2-chakra schema the rest of et/ reads (id, name, inputs and outputs {values, shapes,
// types} parsed from their JSON text, attrs as {name, type, value}; plus "type",
// "chakra_ctrl_deps", "data_deps", "start_time_micros", "duration_micros": Chakra's
// control dependencies are edges between nodes, not the parent op, so nodes have no
// parent), so a
// Chakra trace summarises, links to its Kineto trace and gives shapes to predict like a
// PyTorch one. The global metadata's attrs ("schema", "pid", ...) are the top-level keys.
#include <optional>
#include <string>
#include <string_view>

#include "et/execution_trace.h"
#include "io/byte_source.h"

namespace opscope {

// A varint length, then a GlobalMetadata message whose first attr is named "schema", or
// whose version field comes first.
bool looksLikeChakraEt(std::string_view head);
std::optional<ExecutionTrace> readChakraEt(ByteSource& src, std::string& error);

}  // namespace opscope
