#pragma once
// GPU user-annotation breakdown, as Holistic Trace Analysis' get_gpu_user_annotation_
// breakdown: per name of the gpu_user_annotation spans Kineto draws on the device
// streams (the GPU-side extent of a record_function / annotation: from its first GPU
// event's start to its last one's end), the instances' count and total, min, max, mean
// and std of their durations; and, beyond HTA, the GPU events inside each instance (on
// its stream, starting inside it): their count, summed time and the kernels that take
// the most of it. Nested annotations each count what they contain.
//
// Where HTA differs: it rounds ns-resolution spans to whole µs (start up, end down) and
// its std is the sample one (pandas, n - 1); here durations are exact and std is the
// population one (as every statistic opscope reports). A trace without
// gpu_user_annotation spans has no rows (HTA: None).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sample_stats.h"
#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct AnnotationKernels {
  std::string name;
  uint64_t count = 0;
  TimeNs time = 0;
};

struct AnnotationRow {
  std::string name;
  TimeNs total = 0;
  SampleStats durUs;  // the instances' durations, µs
  uint64_t gpuEvents = 0;
  TimeNs gpuEventTime = 0;                 // sum of the contained GPU events' durations
  std::vector<AnnotationKernels> kernels;  // the contained GPU events by name, most time first
};

struct AnnotationBreakdown {
  std::vector<AnnotationRow> rows;  // total descending, then name
};

// kernelsPerRow: how many kernel names each row keeps (the rest are summed in its totals).
AnnotationBreakdown annotationBreakdown(const Trace& trace, std::optional<TimeWindow> window = std::nullopt,
                                        size_t kernelsPerRow = 10);

}  // namespace opscope
