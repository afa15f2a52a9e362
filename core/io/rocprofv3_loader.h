#pragma once
// rocprofv3's JSON result (rocprofiler-sdk's `--output-format json`: {"rocprofiler-sdk-tool":
// [{metadata, agents, strings, kernel_symbols, buffer_records: {kernel_dispatch, hip_api,
// memory_copy, marker_api, ...}, ...}]}), as AMD's TraceLens reads it:
//  - agents: GPU agents become devices (index logical_node_type_id, named by product_name,
//    CU count and wavefront size as deviceProperties for the presets);
//  - kernel dispatches: kernels on one stream track per (GPU, queue), named through the
//    kernel symbols (demangled), with grid and workgroup sizes, LDS and scratch as args;
//  - HIP API records: calls on their host threads (operation names from the strings
//    table), linked to the dispatches and copies they started by correlation id;
//  - memory copies: copy events on the destination GPU's copy track, with bytes;
//  - marker (ROCTx) records: annotations on their threads.
// Timestamps are ns. The document is read as a stream (io/json_units.h): each record is
// parsed alone, and a record that lacks a field is counted as a warning, never fatal.
#include <string_view>

#include "io/byte_source.h"
#include "io/load_result.h"

namespace opscope {

bool looksLikeRocprofv3(std::string_view head);
LoadResult loadRocprofv3(ByteSource& src);

}  // namespace opscope
