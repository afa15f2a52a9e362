#include "analysis/overview.h"

#include <algorithm>

#include "model/interval_set.h"

namespace opscope {

const char* stepPartName(StepPart p) {
  switch (p) {
    case StepPart::Kernel:
      return "kernel";
    case StepPart::Memcpy:
      return "memcpy";
    case StepPart::Memset:
      return "memset";
    case StepPart::Communication:
      return "communication";
    case StepPart::Runtime:
      return "runtime";
    case StepPart::DataLoading:
      return "data loading";
    case StepPart::Cpu:
      return "cpu";
    case StepPart::Idle:
      return "idle";
    case StepPart::Count_:
      break;
  }
  return "?";
}

Overview computeOverview(const Trace& trace, const OverviewOptions& options) {
  Overview o;
  o.start = options.window ? options.window->start : trace.minTs;
  o.end = options.window ? options.window->end : trace.maxTs;
  o.wall = std::max<TimeNs>(0, o.end - o.start);
  const KernelClassifier& classifier = options.classifier ? *options.classifier : KernelClassifier::builtin();
  std::vector<int32_t> classOfName;
  const std::vector<std::string> classes = classifyGpuNames(trace, classifier, classOfName);
  const auto nccl = std::find(classes.begin(), classes.end(), "nccl");
  const int32_t ncclClass = nccl == classes.end() ? -2 : static_cast<int32_t>(nccl - classes.begin());
  // Names that mark data loading or iterations, decided once per string.
  o.deviceKind = trace.meta.deviceKind;
  o.hasDevice = std::any_of(trace.tracks.begin(), trace.tracks.end(),
                            [](const Track& t) { return t.kind == TrackKind::GpuStream; });
  // Host slices that are collectives: gloo runs on the CPU whatever the job; without a
  // device, c10d's and the profiler's record_param_comms spans are the communication too.
  std::vector<uint8_t> loaderName(trace.strings.size(), 0), stepName(trace.strings.size(), 0),
      hostCollective(trace.strings.size(), 0);
  for (StringId id = 1; id < trace.strings.size(); ++id) {
    const std::string_view n = trace.strings.get(id);
    loaderName[id] = !options.dataLoaderMarker.empty() && n.find(options.dataLoaderMarker) != std::string_view::npos;
    stepName[id] = isProfilerStepName(n);
    hostCollective[id] = n.starts_with("gloo:") ||
                         (!o.hasDevice && (n.find("c10d::") != std::string_view::npos || n == "record_param_comms"));
  }

  constexpr size_t kParts = static_cast<size_t>(StepPart::Count_);
  std::array<IntervalSet, kParts> parts;
  IntervalSet allGpu;
  std::vector<IntervalSet::Interval> scratch[kParts];
  TimeNs activeStart = o.end, activeEnd = o.start, gpuStart = o.end, gpuEnd = o.start;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    const SliceColumns& s = track.slices;
    for (auto& v : scratch) v.clear();
    uint64_t streamEvents = 0;
    // Slices that started before the window may reach into it: scan from the start of
    // the track up to the window's end (rows are sorted by start).
    const size_t last = s.lowerBound(o.end);
    for (size_t i = 0; i < last; ++i) {
      const TimeNs a = std::max(s.start[i], o.start), b = std::min(s.end(i), o.end);
      const bool inside = s.start[i] >= o.start;  // counted once, where it starts
      const SliceKind k = s.kind[i];
      if (b >= a && k != SliceKind::TraceSpan) {
        activeStart = std::min(activeStart, a);
        activeEnd = std::max(activeEnd, b);
      }
      StepPart part = StepPart::Count_;
      if (track.kind == TrackKind::GpuStream && isGpuKind(k)) {
        if (b >= a) {
          gpuStart = std::min(gpuStart, a);
          gpuEnd = std::max(gpuEnd, b);
        }
        if (inside) {
          ++streamEvents;
          o.kernels += k == SliceKind::Kernel;
          o.memcpys += k == SliceKind::Memcpy;
          o.memsets += k == SliceKind::Memset;
        }
        part = k == SliceKind::Memcpy                ? StepPart::Memcpy
               : k == SliceKind::Memset              ? StepPart::Memset
               : classOfName[s.name[i]] == ncclClass ? StepPart::Communication
                                                     : StepPart::Kernel;
      } else if (track.kind == TrackKind::Thread) {
        if (isLaunchKind(k)) {
          part = StepPart::Runtime;
          o.launches += inside;
        } else if (hostCollective[s.name[i]]) {
          part = StepPart::Communication;
        } else if (loaderName[s.name[i]]) {
          part = StepPart::DataLoading;
        } else if (isOpKind(k)) {
          part = StepPart::Cpu;
          o.ops += inside;
        }
        if (inside && stepName[s.name[i]] && k != SliceKind::GpuUserAnnotation) ++o.iterations;
      }
      if (part != StepPart::Count_ && b > a) scratch[static_cast<size_t>(part)].emplace_back(a, b);
    }
    // Within a track rows are sorted by start, so each track's union is linear; the
    // clipped starts keep that order (clipping only raises starts before the window).
    IntervalSet streamBusy;
    for (size_t p = 0; p < kParts; ++p) {
      if (scratch[p].empty()) continue;
      IntervalSet u = IntervalSet::fromSortedByStart(scratch[p]);
      if (track.kind == TrackKind::GpuStream) streamBusy = streamBusy.unite(u);
      parts[p] = parts[p].unite(u);
    }
    if (track.kind == TrackKind::GpuStream && streamEvents + streamBusy.intervals().size() > 0) {
      StreamActivity a;
      a.track = t;
      a.label = trace.trackLabel(t);
      a.events = streamEvents;
      a.busy = streamBusy.length();
      o.streams.push_back(std::move(a));
      allGpu = allGpu.unite(streamBusy);
    }
  }
  std::sort(o.streams.begin(), o.streams.end(), [](const StreamActivity& a, const StreamActivity& b) {
    return a.busy != b.busy ? a.busy > b.busy : a.track < b.track;
  });
  o.gpuActive = allGpu.length();
  o.gpuIdle = o.wall - o.gpuActive;
  if (activeEnd > activeStart) o.activeStart = activeStart, o.activeEnd = activeEnd;
  else o.activeStart = o.activeEnd = o.start;
  if (gpuEnd > gpuStart) o.gpuStart = gpuStart, o.gpuEnd = gpuEnd;
  const auto ratio = [](TimeNs part, TimeNs whole) {
    return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
  };
  o.gpuUtilisation = ratio(o.gpuActive, o.activeSpan());
  o.gpuUtilisationEnvelope = ratio(o.gpuActive, o.wall);
  o.gpuUtilisationGpuSpan = ratio(o.gpuActive, o.gpuSpan());
  for (StreamActivity& a : o.streams) a.utilisation = ratio(a.busy, o.activeSpan());
  o.dataLoading = parts[static_cast<size_t>(StepPart::DataLoading)].length();
  o.hostRuntime = o.wall - o.dataLoading;
  if (options.batchSize && o.iterations > 0 && o.hostRuntime > 0)
    o.samplesPerSecond =
        static_cast<double>(o.iterations * *options.batchSize) * 1e9 / static_cast<double>(o.hostRuntime);
  // Priority sweep: each part gets the time it covers that no earlier part covers.
  IntervalSet covered;
  TimeNs assigned = 0;
  for (size_t p = 0; p + 1 < kParts; ++p) {
    o.breakdown[p] = parts[p].lengthOutside(covered);
    assigned += o.breakdown[p];
    covered = covered.unite(parts[p]);
  }
  o.breakdown[static_cast<size_t>(StepPart::Idle)] = o.wall - assigned;
  return o;
}

}  // namespace opscope
