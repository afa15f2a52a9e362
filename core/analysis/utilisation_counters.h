#pragma once
// GPU utilisation over time as counter series, so the timeline can show it as a track
// next to the streams it summarises: per GPU device (each process holding GPU stream
// tracks), the share of each time bin covered by the union of that device's GPU events.
//
// Bins are a round width (1, 2 or 5 × 10^k ns, at least 1 µs) chosen so the trace spans
// about targetBins of them; a value is the percentage (0..100) of its bin, so zooming
// in below the bin width shows steps, not the events' exact edges. The last sample sits
// at the end of the device's last event with value 0 (nothing runs after it), so the
// series never reaches past the trace's end.
#include <cstddef>
#include <string>
#include <vector>

#include "model/trace.h"

namespace opscope {

struct UtilisationSeries {
  uint32_t process = 0;  // the device's process
  TimeNs start = 0;      // first bin's start
  TimeNs end = 0;        // end of the device's last GPU event
  TimeNs binWidth = 0;
  std::vector<double> percent;  // per bin
};

TimeNs roundBinWidth(TimeNs span, size_t targetBins);

// One series per process holding GPU events; empty when the trace has none.
std::vector<UtilisationSeries> gpuUtilisation(const Trace& trace, size_t targetBins = 2000);

// Appends gpuUtilisation's series to trace.counters, named after the trace's device
// kind: "GPU utilisation %", "MTIA utilisation %", "CPU device utilisation %".
std::string utilisationCounterName(const Trace& trace);
void addGpuUtilisationCounters(Trace& trace, size_t targetBins = 2000);

}  // namespace opscope
