#pragma once
// Iterations of a training loop.
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"

namespace opscope {

// "ProfilerStep#12" -> 12; nullopt for anything else (the whole name must match ^ProfilerStep#\d+$).
std::optional<int64_t> profilerStepNumber(std::string_view name);
inline bool isProfilerStepName(std::string_view name) { return profilerStepNumber(name).has_value(); }

// Host-side ProfilerStep#N slices (not their gpu_user_annotation copies), by start.
std::vector<Iteration> findProfilerSteps(const Trace& trace);

// Fallback for traces without ProfilerStep: every slice whose name equals marker (or,
// when none does, contains it) starts an iteration, on the thread where the marker
// occurs most; an iteration ends where the next one starts, the last one at the end
// of that thread's last slice. ("## forward ##" module markers and "DataLoader" spans
// of the seed notebooks work this way.)
std::vector<Iteration> findMarkerIterations(const Trace& trace, std::string_view marker);

// The time window [start of iteration first, end of iteration first+count-1]; count is
// clamped to what exists. nullopt when first is out of range.
struct TimeWindow {
  TimeNs start = 0;
  TimeNs end = 0;
};
std::optional<TimeWindow> iterationWindow(const std::vector<Iteration>& its, size_t first, size_t count);

// When each iteration's work is over: the later of its host-side end and the end of the
// last GPU event launched inside it (the GPU drains after the host has moved on), so a
// GPU-bound iteration is as long as its device work, not its Python loop. One entry per
// iteration; an iteration whose launches have no linked GPU events ends at its own end.
std::vector<TimeNs> iterationWallEnds(const Trace& trace, const std::vector<Iteration>& its);
// The same for several groups of iterations at once (the ranks of a merged session):
// groupOfTrack[t] says which group launches on track t belong to (out of range: none).
// One pass over the launch links whatever the number of groups.
std::vector<std::vector<TimeNs>> iterationWallEnds(const Trace& trace,
                                                   const std::vector<std::vector<Iteration>>& groups,
                                                   const std::vector<uint32_t>& groupOfTrack);

}  // namespace opscope
