#pragma once
// Threads with no name and an id no operating system gave. Old Kineto/CUPTI traces file
// the runtime calls of threads the profiler did not name (NCCL's watchdog polling
// cudaEventQuery, a data loader's copies) under pthread_self() cut to int32
// ("tid": -1220540864, or a large positive number) with no thread_name. Shown as they
// are, four such rows read "thread -1220540864", "thread 228591168", ... and say
// nothing. Their events cannot be tied to the thread that made them (their External
// id is the correlation id, and a watchdog's calls fall inside the busy Python thread's
// ops as well), so the label says what the thread does instead.
#include "model/trace.h"

namespace opscope {

// No Linux thread id is negative or above pid_max's ceiling, 2^22.
constexpr int64_t kLinuxPidMaxLimit = int64_t{1} << 22;

// Sets Track::holds for every thread track with no name, a numeric tid < 0 or > 2^22
// and events: its most frequent event names by count ("cudaEventQuery", "cudaMemcpyAsync,
// cudaStreamSynchronize", "cudaLaunchKernel, cudaMemsetAsync and 5 more"). Reads the
// names only, O(events of those tracks).
void describeUnnamedThreads(Trace& trace);

}  // namespace opscope
