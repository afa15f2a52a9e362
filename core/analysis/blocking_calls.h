#pragma once
// Runtime and driver calls by how they hold the host, in one place for the critical path
// and the advice: which take the CUDA runtime lock, which may block until the GPU catches
// up, and what a blocking call waits for. Names are the API's own: the Nsight loader strips
// CUPTI's version suffixes ("cudaDeviceSynchronize_v3020") before anything reads them.
#include <cstdint>
#include <string_view>

namespace opscope {

// Calls that take the CUDA runtime lock (HTA's CUDA_RUNTIME_EVENTS).
bool isLockCall(std::string_view name);

// Calls that may block the host until the GPU catches up: on the critical path their own
// length weighs 0 and the GPU work they wait for carries it (HTA's BLOCKING_SYNC_CALLS,
// their HIP twins and the driver's synchronize calls). Includes the asynchronous copies
// and event queries HTA lists, which block only sometimes.
bool isBlockingCall(std::string_view name);

// What a call that blocks waits for: the whole device (device / context synchronize), the
// GPU work that finishes while it blocks (stream and event synchronize, synchronous copies
// and memsets), or nothing it must wait for (every other call, asynchronous copies and
// event queries included).
enum class CallWaits : uint8_t { Nothing, Device, Work };
CallWaits callWaitsFor(std::string_view name);

}  // namespace opscope
