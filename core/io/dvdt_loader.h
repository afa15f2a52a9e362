#pragma once
// OpenCL "dv/dt prof" traces (Collective Knowledge's OpenCL API profiler), into the
// same model as Kineto traces so every view and analysis works on them.
//
// Input: the list of API call records dv/dt prof writes ({"call": "clEnqueue...",
// ...}), or an object holding it under "dvdt_prof" (a CK experiment point's "run"),
// optionally beside "per_layer_info". Mapping:
//   - every call record with host timestamps ({"timestamp": {"start", "end"}} as ISO
//     times) is a host slice on one "OpenCL API" thread (category Runtime);
//   - a clEnqueueNDRangeKernel record with "profiling" {queued, submit, start, end}
//     (device ns) is a kernel on its queue's stream (the stream id is the queue handle),
//     lasting end - start, correlated with its enqueue call (queued -> start is the
//     launch link);
//   - device times are placed on the host clock by the median over kernels of
//     (enqueue call start - queued), which both clocks saw at the same instant;
//   - Xgemm* kernels get M, N, K from the first three clSetKernelArg values set on
//     their kernel handle before the enqueue (arg_value: the argument's bytes as hex,
//     in memory order, read little-endian), as the CK notebook reads them;
//   - per_layer_info entries with timestamps become layer spans from the previous
//     layer's timestamp to theirs, and each kernel's "layer" arg names the layer its
//     enqueue call falls in (as the CK notebook assigns calls to layers).
// Records that cannot be used (no "call", an NDRange without profiling fields, bad
// times) are counted as warnings with their index; none of them stops the load.
#include <string_view>

#include "io/byte_source.h"
#include "io/load_result.h"

namespace opscope {

// True when text (the start of a file) looks like a dv/dt prof trace.
bool looksLikeDvdtProf(std::string_view head);
// Reads record by record (io/json_units.h): one record may not exceed
// kMaxJsonValueBytes; values the loader does not use are skipped unread.
LoadResult loadDvdtProf(ByteSource& src);

// "2017-09-19T12:34:56.789012" (or with a space for the T) -> ns since the Unix epoch,
// read as UTC; false when malformed.
bool parseIsoTimeNs(std::string_view s, int64_t& ns);
// "0x40000000" -> the bytes 40 00 00 00 read little-endian -> 64.
bool hexBytesLittleEndian(std::string_view hex, int64_t& value);

}  // namespace opscope
