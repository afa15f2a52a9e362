#pragma once
// The critical path of a time window (one iteration, an annotation, the whole trace)
// across CPU threads and GPU streams, as Holistic Trace Analysis' critical path analysis
// defines its graph (hta/analyzers/critical_path_analysis.py), so the two tools name the
// same path on the same trace:
//  - nodes: the start and end of every cpu_op, runtime and driver call starting in the
//    window (zero-length ones left out) and of every kernel / memcpy / memset whose launch
//    starts in it;
//  - op nesting and order on each thread: parent start -> child start -> child end ->
//    next child ... -> parent end (weighted by time), consecutive top-level ops joined by
//    zero-weight dependency edges; the backward thread is read as part of the forward
//    thread when each is one thread (HTA does the same);
//  - the CUDA runtime lock: cudaLaunchKernel / cudaMemcpyAsync / cudaHostAlloc calls of
//    all threads ordered by when they finish;
//  - launch -> kernel edges (launch delay) when the stream had nothing queued, otherwise
//    kernel -> next kernel on the stream (kernel-kernel delay, under 1.5 ms apart); the
//    kernels of one CUDA graph launch hang off it, the first by a launch edge and the
//    rest in stream order;
//  - synchronisation: cudaStreamSynchronize / cudaDeviceSynchronize wait for the last
//    kernel of their stream / of every stream; cudaEventSynchronize and
//    cudaStreamWaitEvent for the kernel launched just before the cudaEventRecord they
//    name (`wait_on_cuda_event_record_corr_id`, `wait_on_stream` of Kineto's cuda_sync
//    events); blocking calls themselves weigh 0 (their time is the GPU work they wait for).
// The path is the longest path by weight (ties broken as networkx' dag_longest_path
// breaks them, which HTA calls). Its segments then cover every nanosecond from its first
// to its last node: weighted edges are time in an op, call, kernel or delay, and the
// gaps of zero-weight edges are sync waits, runtime-lock waits or host idle.
//
// Differences from HTA, on purpose: queues are per (device, stream), not per stream
// number across GPUs; negative edge weights (a child ending after its parent by clock
// rounding) are clamped to 0 and counted instead of failing the analysis; a cycle (only
// from contradictory timestamps) is reported as an error instead of an exception.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"

namespace opscope {

// Where the analysis looks. Events count when they start in [start, end] (GPU events:
// when their launch does); wallEnd is when the window's work is over (its host end or
// the end of the last GPU event launched in it, whichever is later).
struct CriticalPathWindow {
  enum class Kind : uint8_t { Trace, Iteration, Annotation };
  Kind kind = Kind::Trace;
  TimeNs start = 0, end = 0, wallEnd = 0;
  int64_t iteration = -1;  // Kind::Iteration: 0-based index into Trace::iterations
  std::string label;       // "ProfilerStep#7", the annotation's name, or "trace"
};
std::optional<CriticalPathWindow> criticalPathWindowOfTrace(const Trace& trace);
std::optional<CriticalPathWindow> criticalPathWindowOfIteration(const Trace& trace, size_t index);
// Like HTA's (annotation, instance_id): every slice whose name contains `name`, in time
// order, and the instance-th of them (0-based), host or device alike.
std::optional<CriticalPathWindow> criticalPathWindowOfAnnotation(const Trace& trace, std::string_view name,
                                                                 size_t instance);

enum class CpEdgeType : uint8_t { Operator, Dependency, LaunchDelay, KernelKernelDelay, Sync };
const char* cpEdgeTypeName(CpEdgeType t);  // "operator", "dependency", "launch_delay", ...

// What a stretch of the path is: the six the issue names, split where it helps to act.
enum class CpCategory : uint8_t {
  CpuOp,          // in a cpu_op (or an annotation around one), not in a call it made
  Runtime,        // in a runtime / driver call, or waiting for the CUDA runtime lock
  Kernel,         // a compute kernel running
  Communication,  // a collective kernel running (nccl / rccl)
  Memcpy,         // a memcpy or memset running
  SyncWait,       // the host blocked in a synchronising call past the GPU work it waits for
  LaunchDelay,    // from a launch call's start to its kernel's start, the stream empty
  KernelGap,      // between two kernels of a stream, the second already queued
  Idle,           // the host between top-level ops with the GPU not on the path
};
constexpr size_t kCpCategoryCount = 9;
const char* cpCategoryName(CpCategory c);  // "cpu_op", "runtime", "kernel", ... (JSON keys)

struct CriticalPathSegment {
  TimeNs start = 0, end = 0;
  CpCategory category = CpCategory::Idle;
  CpEdgeType edge = CpEdgeType::Dependency;
  uint64_t event = kNoRef;  // packed EventRef the time is spent in; kNoRef for waits and gaps
  uint64_t from = kNoRef;   // the events of the edge's two nodes (the arrow drawn)
  uint64_t to = kNoRef;
};

struct CriticalPath {
  std::string error;  // non-empty: no path (nothing in the window, or a cycle)
  CriticalPathWindow window;
  std::vector<CriticalPathSegment> segments;  // in path order, end of one = start of next
  std::vector<uint64_t> events;               // packed refs of every slice on the path, sorted
  TimeNs start = 0, end = 0;                  // the path's first and last node
  TimeNs weight = 0;                          // HTA's longest-path length (weighted edges only)
  std::array<TimeNs, kCpCategoryCount> byCategory{};
  size_t graphNodes = 0, graphEdges = 0, pathNodes = 0;
  std::array<size_t, 5> graphEdgesByType{};  // indexed by CpEdgeType
  size_t eventRecordsMatched = 0;            // cudaEventRecord calls waited on, tied to the GPU work they mark
  bool traceHasSyncEvents = false;           // Kineto's cuda_sync events (without them syncs are guessed from nothing)
  // Blocking calls (synchronize, synchronous copies) without a sync event of their own that
  // were tied to the GPU work ending while they blocked (see inferredWaitEdges).
  size_t inferredWaits = 0;
  std::string traceFormat;  // TraceMetadata::format: which advice fits a trace without sync events
  uint64_t clampedNegativeWeights = 0;

  TimeNs length() const { return end - start; }
  bool ok() const { return error.empty(); }
};

// How the path is computed, not what it is: from concurrentEdgesFrom events in the window
// the GPU side's edges are found on a second thread beside the call stacks' (the same
// path either way; tests set 0 and SIZE_MAX to compare the two).
struct CriticalPathThreads {
  size_t concurrentEdgesFrom = size_t{1} << 16;
};

CriticalPath computeCriticalPath(const Trace& trace, const CriticalPathWindow& window,
                                 CriticalPathThreads threads = {});

}  // namespace opscope
