#pragma once
// End-to-end iteration prediction: the critical-path traversal of Lin et al. (HiPC
// 2022) over one ProfilerStep iteration. Every CPU thread replays its host work in
// order: gaps of CPU time, launch calls that queue GPU events on their streams, and
// synchronising calls that wait until the GPU has finished everything launched before
// them. A GPU event starts when its stream is free and no earlier than its launch
// allowed (the launch-to-start latency measured when the stream was idle); streams run
// in parallel. The iteration ends at the later of its ProfilerStep thread reaching the
// step's end and the GPU finishing the work launched in it (iterationWallEnds, measured
// and simulated alike), so a GPU-bound iteration follows its kernels. In predict mode a
// launch onto a stream with kLaunchQueueDepth events queued and not started blocks
// until the oldest starts (back-pressure; the replay's measured launch lengths already
// hold that wait).
//
// Replay: every duration as measured (gaps, launches, GPU events, the synchronising
// calls' own time after their wait), a self-check of the simulator: it must give back
// the measured iteration time.
// Predict: host time from the overhead statistics (T1 between top-level ops, T2 op start
// to first launch, T4 per launch (the median of the non-blocking launches of its name;
// a blocking launch waits for its own GPU work instead), T5 between launches or the op's CPU time when it
// launches nothing, T3 last launch to op end; a piece whose statistic is missing, and
// gaps longer than the T1 limit such as data loading, stay as measured), and each op's
// GPU events scaled so they add up to its predicted GPU time (events of ops with no
// model keep their measured time; coverage says how much that is).
//
// Work launched before the iteration that still runs in it (a stream running behind its
// host, also work launched before the profiler began) holds its stream as measured: it
// is the state the iteration starts in, not an op it prices (iteration_sim.cpp).
// Not modelled: dependencies between streams (event waits, collectives waiting for
// their peers; a replay keeps them as measured gaps) and between threads other than
// through the GPU.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/overhead_model.h"
#include "model/trace.h"
#include "perf/op_models.h"

namespace opscope {

class OpIndex;

// CUDA's launch queue, about this many launches per stream before a launch blocks.
inline constexpr size_t kLaunchQueueDepth = 1024;

struct SimOptions {
  bool replay = true;
  // Predict mode with every GPU event at its measured duration and only the host
  // modelled: the paper's self-check of the host model (--kernels measured).
  bool measuredKernels = false;
  // Predict mode: host overheads (µs means) and per-op predictions (from predictOps).
  const OverheadModel* overheads = nullptr;
  double t1MaxGapUs = 200;
  const std::vector<OpRow>* ops = nullptr;
  // The trace's op index when the caller has one (a prediction's, OpInputs::opIndex);
  // nullptr: built for this call.
  const OpIndex* index = nullptr;
};

struct IterationPrediction {
  size_t index = 0;       // 0-based among the trace's iterations
  int64_t number = 0;     // N of ProfilerStep#N
  double measuredUs = 0;  // step start to the later of its end and its GPU work's (iterationWallEnds)
  double stepUs = 0;      // the ProfilerStep's own duration
  double predictedUs = 0;
  double gpuActiveMeasuredUs = 0;   // union of the iteration's GPU events as measured
  double gpuActivePredictedUs = 0;  // and as simulated
  uint64_t launches = 0, syncs = 0, gpuEvents = 0;
  double modelledGpuUs = 0;  // predict: measured GPU time of events whose op has a model
  double measuredGpuUs = 0;  // all launched GPU time in the iteration
  double errorPct() const { return measuredUs > 0 ? 100.0 * (predictedUs - measuredUs) / measuredUs : 0; }
};

// Iterations whose ProfilerStep slice is known (marker iterations have none).
std::vector<IterationPrediction> simulateIterations(const Trace& trace, const SimOptions& options);

// Names of runtime calls that block the host until the GPU is done (cudaDeviceSynchronize,
// cudaStreamSynchronize, cudaEventSynchronize, synchronous cudaMemcpy, HIP's).
bool isSynchronizingCall(std::string_view name);

}  // namespace opscope
