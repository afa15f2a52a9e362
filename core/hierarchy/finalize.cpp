#include "hierarchy/finalize.h"

#include "hierarchy/iterations.h"
#include "hierarchy/links.h"
#include "hierarchy/nesting.h"
#include "hierarchy/unnamed_threads.h"

namespace opscope {

void buildHierarchy(Trace& trace) {
  uint64_t crossovers = 0;
  std::string example;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    Track& t = trace.tracks[ti];
    if (t.kind == TrackKind::Thread) {
      t.crossovers = nestByContainment(t.slices, t.maxDepth);
      if (t.crossovers && example.empty()) {
        for (uint32_t i = 0; i < t.slices.size(); ++i)
          if (t.slices.flags[i] & kFlagCrossover) {
            example = std::string(trace.str(t.slices.name[i])) + " on " + trace.trackLabel(ti);
            break;
          }
      }
      crossovers += t.crossovers;
    } else {
      assignLanes(t.slices, t.maxDepth);
    }
  }
  trace.diagnostics.add(WarningKind::Crossover, crossovers, example);
  describeUnnamedThreads(trace);
  bindFlows(trace);         // before the launch links: GPU events without a correlation
  buildLaunchLinks(trace);  // id are linked by their ac2g flow
  trace.iterations = findProfilerSteps(trace);
}

}  // namespace opscope
