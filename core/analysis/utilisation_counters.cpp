#include "analysis/utilisation_counters.h"

#include <algorithm>
#include <map>

#include "model/interval_set.h"

namespace opscope {

TimeNs roundBinWidth(TimeNs span, size_t targetBins) {
  const TimeNs want = span / static_cast<TimeNs>(std::max<size_t>(1, targetBins));
  TimeNs decade = 1000;  // at least 1 µs
  while (true) {
    for (TimeNs f : {1, 2, 5})
      if (f * decade >= want) return f * decade;
    decade *= 10;
  }
}

std::vector<UtilisationSeries> gpuUtilisation(const Trace& trace, size_t targetBins) {
  std::map<uint32_t, std::vector<IntervalSet::Interval>> spansOf;  // by process, ordered
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    auto& spans = spansOf[t.process];
    const SliceColumns& s = t.slices;
    for (size_t i = 0; i < s.size(); ++i)
      if (isGpuKind(s.kind[i])) spans.emplace_back(s.start[i], s.end(i));
  }
  std::vector<UtilisationSeries> out;
  for (auto& [process, spans] : spansOf) {
    if (spans.empty()) continue;
    const IntervalSet busy = IntervalSet::fromUnsorted(std::move(spans));
    if (busy.intervals().empty()) continue;  // only zero-length events: nothing was busy
    UtilisationSeries u;
    u.process = process;
    const TimeNs first = busy.intervals().front().first, last = busy.intervals().back().second;
    u.end = last;
    u.binWidth = roundBinWidth(last - first, targetBins);
    // Bins aligned to multiples of the width (rounding down, negative times included).
    u.start = first - ((first % u.binWidth) + u.binWidth) % u.binWidth;
    const size_t bins = static_cast<size_t>(ceilDiv(last - u.start, u.binWidth));
    std::vector<TimeNs> covered(bins, 0);
    for (auto [a, b] : busy.intervals()) {
      // An interval may span many bins; each gets the part inside it.
      for (TimeNs x = a; x < b;) {
        const size_t bin = static_cast<size_t>((x - u.start) / u.binWidth);
        const TimeNs y = std::min(b, satAdd(u.start, static_cast<TimeNs>(bin + 1) * u.binWidth));
        covered[bin] += y - x;
        x = y;
      }
    }
    u.percent.resize(bins);
    for (size_t i = 0; i < bins; ++i)
      u.percent[i] = 100.0 * static_cast<double>(covered[i]) / static_cast<double>(u.binWidth);
    out.push_back(std::move(u));
  }
  return out;
}

std::string utilisationCounterName(const Trace& trace) { return trace.meta.deviceKind + " utilisation %"; }

void addGpuUtilisationCounters(Trace& trace, size_t targetBins) {
  const std::vector<UtilisationSeries> series = gpuUtilisation(trace, targetBins);
  if (series.empty()) return;
  const StringId name = trace.strings.intern(utilisationCounterName(trace));
  for (const UtilisationSeries& u : series) {
    CounterSeries c;
    c.process = u.process;
    c.name = name;
    c.ts.reserve(u.percent.size() + 1);
    c.value.reserve(u.percent.size() + 1);
    for (size_t i = 0; i < u.percent.size(); ++i) {
      c.ts.push_back(satAdd(u.start, static_cast<TimeNs>(i) * u.binWidth));
      c.value.push_back(u.percent[i]);
    }
    c.ts.push_back(u.end);
    c.value.push_back(0);
    trace.counters.push_back(std::move(c));
  }
}

}  // namespace opscope
