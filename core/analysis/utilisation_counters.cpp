#include "analysis/utilisation_counters.h"

#include <algorithm>
#include <limits>
#include <map>

#include "model/interval_set.h"

namespace opscope {

namespace {
// 128-bit bin arithmetic (GCC and clang; __extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 Wide;
}  // namespace

TimeNs roundBinWidth(TimeNs span, size_t targetBins) {
  const TimeNs want = span / static_cast<TimeNs>(std::max<size_t>(1, targetBins));
  // Widths 1, 2, 5 × 10^k ns from 1 µs up to 5·10^18 (the time domain is ±2^62 ns, so
  // a span is below 9.3·10^18): no product or decade here overflows.
  constexpr TimeNs kLastDecade = 1'000'000'000'000'000'000;
  for (TimeNs decade = 1000;; decade *= 10) {
    for (TimeNs f : {1, 2, 5})
      if (f * decade >= want) return f * decade;
    if (decade == kLastDecade) return want;  // before decade × 10 would overflow
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
    // Saturating: events at both ends of the ±2^62 ns domain span 2^63 ns, one more
    // than int64 holds (UBSan found the overflow on a 10 KB Nsight export).
    u.binWidth = roundBinWidth(satSub(last, first), targetBins);
    // Bins aligned to multiples of the width (rounding down, negative times included).
    u.start = first - ((first % u.binWidth) + u.binWidth) % u.binWidth;
    // Bin arithmetic in 128 bits: last - start can exceed int64 by up to a bin width.
    const Wide width = u.binWidth;
    const size_t bins = static_cast<size_t>((Wide{last} - u.start + width - 1) / width);
    auto binEnd = [&](size_t bin) {  // start + (bin + 1) × width, clamped to int64
      const Wide e = Wide{u.start} + (Wide{static_cast<int64_t>(bin)} + 1) * width;
      return static_cast<TimeNs>(std::min<Wide>(e, std::numeric_limits<TimeNs>::max()));
    };
    std::vector<TimeNs> covered(bins, 0);
    for (auto [a, b] : busy.intervals()) {
      // An interval may span many bins; each gets the part inside it.
      for (TimeNs x = a; x < b;) {
        const size_t bin = std::min(bins - 1, static_cast<size_t>((Wide{x} - u.start) / width));
        const TimeNs y = std::min(b, binEnd(bin));
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
      // In 128 bits: i × width can pass int64 at the far end of the ±2^62 domain.
      const Wide ts = Wide{u.start} + Wide{static_cast<int64_t>(i)} * u.binWidth;
      c.ts.push_back(static_cast<TimeNs>(std::min<Wide>(ts, std::numeric_limits<TimeNs>::max())));
      c.value.push_back(u.percent[i]);
    }
    c.ts.push_back(u.end);
    c.value.push_back(0);
    trace.counters.push_back(std::move(c));
  }
}

}  // namespace opscope
