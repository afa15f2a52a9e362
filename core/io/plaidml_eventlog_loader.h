#pragma once
// PlaidML / Vertex.AI event logs (eventlog.gz: a gzip stream of varint-length-prefixed
// protobuf Record messages; the fields read are documented in
// resources/plaidml/eventlog.proto), into the same model as Kineto traces:
//   - events are activities keyed by instance_uuid; a split activity (a start event,
//     later one with the end time) is merged; events nest by parent_instance_uuid;
//   - "tile::hal::opencl::Executing" events are kernels, named by the KernelInfo of the
//     activity their RunInfo.kernel_uuid points to, carrying that kernel's OpenCL source
//     and its program (CompilationInfo) as args for the details panel;
//   - every other activity is a host op in its domain's process (domain_uuid), on one
//     track per root activity's verb;
//   - times are the Durations from each clock's epoch.
// Malformed input never stops the load silently: a record whose length runs past the
// end ends it with a truncation warning (byte offset); an unknown metadata type, an
// activity without start or end time, an undecodable event are counted as warnings.
// A file with no readable event is a one-line error.
#include <string_view>

#include "io/load_result.h"

namespace opscope {

// True when the (decompressed) head of a file starts like an event log.
bool looksLikePlaidmlEventlog(std::string_view head);
LoadResult loadPlaidmlEventlog(std::string_view bytes);

inline constexpr uint32_t kEventlogMagic = 0x4C747645;  // 'EvtL' little-endian

}  // namespace opscope
