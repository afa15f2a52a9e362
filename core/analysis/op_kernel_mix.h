#pragma once
// The notebook's "dominating op breakdown": for the top-level ops with the most device
// time, each distinct kernel mix the op's calls launch (its variants: the same op
// launches different kernels for different shapes) with the share of each kernel in
// that variant's device time, drawn as one 100 % stacked bar per variant.
//
// A variant is the set of distinct GPU event names a call launches (the notebook keys
// on the same set, collapsing only volta/maxwell sgemm names by hand: here distinct
// names stay distinct and the class table gives them short labels).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct MixSegment {
  StringId kernel = 0;
  int32_t cls = -1;  // index into OpKernelMixes::classes
  uint64_t count = 0;
  TimeNs time = 0;
  double fraction = 0;                    // of its variant's time
  uint32_t firstEvent = 0, endEvent = 0;  // its GPU events in OpVariant::events
};

struct OpVariant {
  uint64_t calls = 0;
  TimeNs time = 0;
  std::vector<MixSegment> segments;  // time descending; fractions sum to 1
  std::vector<uint64_t> events;      // packed EventRefs grouped by segment
};

struct OpMix {
  StringId name = 0;
  uint64_t calls = 0;               // calls that launched GPU work
  TimeNs time = 0;                  // device time of all its variants
  std::vector<OpVariant> variants;  // time descending, at most maxVariants
  uint64_t hiddenVariants = 0;      // variants beyond maxVariants
  TimeNs hiddenTime = 0;
};

struct OpKernelMixes {
  std::vector<std::string> classes;
  std::vector<OpMix> ops;  // time descending, at most topOps
  TimeNs total = 0;        // device time of all GPU events with a top-level op
};

OpKernelMixes opKernelMixes(const Trace& trace, const KernelClassifier& classifier,
                            std::optional<TimeWindow> window = std::nullopt, size_t topOps = 8, size_t maxVariants = 4);

// Per-op kernel table, optionally grouped by the recorded input shapes: for the calls
// of one op name (any depth; calls nested in a call of the same name count once, with
// their outer call), the GPU events they launched.
struct OpKernelRow {
  StringId kernel = 0;
  int32_t cls = -1;
  uint64_t count = 0;
  TimeNs total = 0;
  double mean = 0;
};
struct OpShapeGroup {
  std::string shapes;  // the "Input Dims" arg as JSON text; "" when not grouping or absent
  uint64_t calls = 0;
  TimeNs cpuTime = 0;                // summed op durations
  TimeNs gpuTime = 0;                // summed durations of their GPU events
  std::vector<OpKernelRow> kernels;  // total descending
};
struct OpKernelTable {
  std::vector<std::string> classes;
  std::vector<OpShapeGroup> groups;  // gpuTime descending
  std::string error;                 // args unreadable (a lazy trace whose file changed)
};
OpKernelTable opKernelTable(const Trace& trace, const KernelClassifier& classifier, std::string_view opName,
                            bool byShape, std::optional<TimeWindow> window = std::nullopt);

}  // namespace opscope
