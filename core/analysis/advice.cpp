#include "analysis/advice.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "analysis/blocking_calls.h"
#include "analysis/kernel_classes.h"
#include "analysis/occupancy.h"
#include "model/interval_set.h"
#include "ranks/rank_metrics.h"
#include "ranks/rank_table.h"

namespace opscope {

namespace {

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

std::string fmtMs(TimeNs ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f ms", static_cast<double>(ns) / 1e6);
  return b;
}

std::string fmtPct(double p) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", p);
  return b;
}

bool isGpuWork(SliceKind k) { return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset; }

struct Context {
  const Trace& trace;
  TimeNs start = 0, end = 0;  // the time examined
  IntervalSet gpu;            // GPU busy, clipped to it
  std::vector<char> tracks;   // the tracks examined (one rank's in a session)
  bool in(uint32_t t) const { return tracks[t] != 0; }
  TimeNs examined() const { return end - start; }
  // Wall time the intervals cover inside the time examined: every rule's time at stake is
  // such a union (or bounded by one), so no share exceeds 100 % of the window it is over
  // (summed durations did: overlapping calls on several threads, kernels on several
  // streams, a whole-trace numerator over the iterations' span gave 113.6 %).
  TimeNs covered(std::vector<IntervalSet::Interval> intervals) const {
    return IntervalSet::fromUnsorted(std::move(intervals)).clip(start, end).length();
  }
  double pct(TimeNs t) const {
    return examined() > 0 ? 100.0 * static_cast<double>(t) / static_cast<double>(examined()) : 0;
  }
};

// The GPU idles while the host is inside launch calls (runtime / driver calls linked to
// the GPU work they start: kernel launches, async copies and memsets): the launches
// cannot keep up. Other runtime calls (initialisation, synchronisation) do not count.
// Fires above 5 % of the time examined.
void launchBound(const Context& c, std::vector<Advice>& out) {
  std::vector<IntervalSet::Interval> runtime;
  std::optional<EventRef> example;
  TimeNs longest = 0;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const SliceColumns& s = c.trace.tracks[t].slices;
    if (c.trace.tracks[t].kind != TrackKind::Thread || !c.in(t)) continue;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Runtime && s.kind[i] != SliceKind::Driver) continue;
      if (s.end(i) <= c.start || s.start[i] >= c.end) continue;
      const uint64_t ref = EventRef{t, i}.packed();
      const auto& l2g = c.trace.links.launchToGpu;
      const auto it = std::lower_bound(l2g.begin(), l2g.end(), ref,
                                       [](const LaunchLinks::Pair& p, uint64_t k) { return p.first < k; });
      if (it == l2g.end() || it->first != ref) continue;  // starts no GPU work
      runtime.emplace_back(s.start[i], s.end(i));
      if (s.dur[i] > longest) longest = s.dur[i], example = EventRef{t, i};
    }
  }
  const IntervalSet host = IntervalSet::fromUnsorted(std::move(runtime)).clip(c.start, c.end);
  const TimeNs idleLaunching = host.lengthOutside(c.gpu);
  const TimeNs idle = c.examined() - c.gpu.length();
  if (c.gpu.empty() || c.pct(idleLaunching) < 5.0) return;
  Advice a;
  a.id = "launch_bound";
  a.title = "GPU idle while the host is in launch calls: " + fmtMs(idleLaunching) + " (" +
            fmtPct(c.pct(idleLaunching)) + " of the time examined; the GPU idles " + fmtMs(idle) + " in all)";
  a.action =
      "launch-bound: capture the step in a CUDA graph (torch.cuda.graphs / torch.compile mode=\"reduce-overhead\"), "
      "fuse small ops, or raise the batch size";
  a.atStake = idleLaunching;
  a.sharePct = c.pct(idleLaunching);
  a.where = example;
  a.evidence = {
      {"gpu_idle_us", us(idle)}, {"idle_while_launching_us", us(idleLaunching)}, {"host_launch_us", us(host.length())}};
  out.push_back(std::move(a));
}

// Many kernels under 10 µs: the idle gaps before them on their stream (under 100 µs each,
// longer ones are not launch overhead) are what fusion or CUDA graphs win back. Fires
// when such kernels are at least 100 and 30 % of all.
void smallKernels(const Context& c, std::vector<Advice>& out) {
  size_t kernels = 0, small = 0;
  TimeNs smallTime = 0;
  std::vector<IntervalSet::Interval> gapSpans;  // streams' gaps may overlap in time: their union counts
  std::optional<EventRef> example;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const Track& track = c.trace.tracks[t];
    if (track.kind != TrackKind::GpuStream || !c.in(t)) continue;
    const SliceColumns& s = track.slices;
    TimeNs lastEnd = kNoId;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isGpuWork(s.kind[i]) || s.start[i] < c.start || s.start[i] >= c.end) continue;
      if (s.kind[i] == SliceKind::Kernel) {
        ++kernels;
        if (s.dur[i] < 10000) {
          ++small;
          addTo(smallTime, s.dur[i]);
          if (!example) example = EventRef{t, i};
          if (lastEnd != kNoId && s.start[i] > lastEnd && s.start[i] - lastEnd < 100000)
            gapSpans.emplace_back(lastEnd, s.start[i]);
        }
      }
      lastEnd = std::max(lastEnd == kNoId ? s.end(i) : lastEnd, s.end(i));
    }
  }
  if (small < 100 || small * 10 < kernels * 3) return;
  const TimeNs gaps = c.covered(std::move(gapSpans));
  Advice a;
  a.id = "small_kernels";
  a.title = std::to_string(small) + " of " + std::to_string(kernels) + " kernels run under 10 µs (" + fmtMs(smallTime) +
            " of GPU time), with " + fmtMs(gaps) + " of idle gaps before them";
  a.action =
      "fuse element-wise ops (torch.compile), use fused optimizers (foreach/fused=True), or capture the step in a CUDA "
      "graph";
  a.atStake = gaps;
  a.sharePct = c.pct(gaps);
  a.where = example;
  a.evidence = {{"kernels", static_cast<double>(kernels)},
                {"small_kernels", static_cast<double>(small)},
                {"small_kernel_us", us(smallTime)},
                {"gaps_before_small_us", us(gaps)}};
  out.push_back(std::move(a));
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Host time blocked in synchronising calls (callWaitsFor: the synchronize calls,
// synchronous copies and memsets, their HIP and driver twins). Fires above 2 % of the time examined.
void hostSync(const Context& c, std::vector<Advice>& out) {
  std::vector<IntervalSet::Interval> spans;
  size_t calls = 0;
  std::optional<EventRef> example;
  TimeNs longest = 0;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const SliceColumns& s = c.trace.tracks[t].slices;
    if (c.trace.tracks[t].kind != TrackKind::Thread || !c.in(t)) continue;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isLaunchKind(s.kind[i]) || s.start[i] < c.start || s.start[i] >= c.end) continue;
      if (callWaitsFor(c.trace.str(s.name[i])) == CallWaits::Nothing) continue;
      ++calls;
      spans.emplace_back(s.start[i], s.end(i));
      if (s.dur[i] > longest) longest = s.dur[i], example = EventRef{t, i};
    }
  }
  const TimeNs blocked = c.covered(std::move(spans));  // host time with a thread blocked
  if (c.pct(blocked) < 2.0) return;
  Advice a;
  a.id = "host_sync";
  a.title = std::to_string(calls) + " synchronising calls block the host for " + fmtMs(blocked) + " (" +
            fmtPct(c.pct(blocked)) + ")";
  a.action =
      "avoid .item(), .cpu(), printing tensors and blocking copies in the step; use non_blocking=True copies from "
      "pinned memory";
  a.atStake = blocked;
  a.sharePct = c.pct(blocked);
  a.where = example;
  a.evidence = {{"sync_calls", static_cast<double>(calls)}, {"blocked_us", us(blocked)}};
  out.push_back(std::move(a));
}

// Copies from pageable host memory go through a staging buffer and cannot overlap with
// compute. Fires for any pageable copy over 1 % of the time examined.
void pageableMemcpy(const Context& c, std::vector<Advice>& out) {
  std::vector<IntervalSet::Interval> spans;
  size_t n = 0;
  std::optional<EventRef> example;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const SliceColumns& s = c.trace.tracks[t].slices;
    if (c.trace.tracks[t].kind != TrackKind::GpuStream || !c.in(t)) continue;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Memcpy || s.start[i] < c.start || s.start[i] >= c.end) continue;
      if (c.trace.str(s.name[i]).find("Pageable") == std::string_view::npos) continue;
      ++n;
      spans.emplace_back(s.start[i], s.end(i));
      if (!example) example = EventRef{t, i};
    }
  }
  const TimeNs time = c.covered(std::move(spans));
  if (n == 0 || c.pct(time) < 1.0) return;
  Advice a;
  a.id = "pageable_memcpy";
  a.title = std::to_string(n) + " copies from pageable memory take " + fmtMs(time) + " of GPU time";
  a.action = "pin the host buffers (DataLoader(pin_memory=True), tensor.pin_memory()) and copy with non_blocking=True";
  a.atStake = time;
  a.sharePct = c.pct(time);
  a.where = example;
  a.evidence = {{"pageable_copies", static_cast<double>(n)}, {"pageable_copy_us", us(time)}};
  out.push_back(std::move(a));
}

// Kernels of 10 µs or more (shorter ones are the small_kernels rule's) running under
// 25 % achieved occupancy, from the launch shape Kineto records. About a quarter of an
// SM's warp slots is what a kernel needs to hide memory latency, so the time at stake
// is an upper bound that assumes throughput grows with occupancy up to there:
// dur × (1 − achieved / target), the target 25 %, or the theoretical occupancy when
// that is lower and only the grid keeps the kernel from it (a grid of too few blocks
// leaves SMs idle). Collective kernels (NCCL/RCCL run a block per channel on purpose)
// are left out, and so are library GEMM, convolution and attention kernels whose
// registers or shared memory limit them: they trade occupancy for tile reuse by design
// (CUTLASS' 256x64 tensor-core GEMM runs at 12.5 %), which is not a lever a user has;
// their grids still count. The evidence splits the time by what limits it. Fires above 1 % of the
// time examined.
void lowOccupancy(const Context& c, std::vector<Advice>& out) {
  constexpr double kTargetPct = 25.0;
  const std::map<int64_t, SmLimits> devices = smLimitsByDevice(c.trace.meta.devices);
  size_t kernels = 0;
  TimeNs time = 0, stake = 0, mostStake = 0;
  double weightedPct = 0;
  std::map<OccupancyLimiter, TimeNs> byLimiter;
  std::optional<EventRef> example;
  std::vector<IntervalSet::Interval> spans;  // the kernels counted: their union bounds the stake
  std::map<StringId, bool> tiled;
  const auto tiledLibraryKernel = [&](StringId name) {
    const auto [it, fresh] = tiled.try_emplace(name, false);
    if (fresh) {
      const std::string cls = KernelClassifier::builtin().classify(c.trace.str(name));
      it->second = cls == "gemm" || cls == "gemv" || cls == "conv" || cls == "attention";
    }
    return it->second;
  };
  // The kernels examined, in track and row order; then their args in one pass over
  // the file (Trace::argsOfEach, only the keys kernelOccupancy reads): asked one kernel
  // at a time, each was a read of its own, 1.5 s of a 1 GB trace's advice. The figures
  // are then summed in the kernels' order, as before.
  std::vector<int8_t> collective(c.trace.strings.size(), -1);  // isCollectiveKernelName by name id
  std::vector<EventRef> examined;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const Track& track = c.trace.tracks[t];
    if (track.kind != TrackKind::GpuStream || !c.in(t)) continue;
    const SliceColumns& s = track.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Kernel || s.dur[i] < 10000 || s.start[i] < c.start || s.start[i] >= c.end) continue;
      int8_t& isCollective = collective[s.name[i]];
      if (isCollective < 0) isCollective = isCollectiveKernelName(c.trace.str(s.name[i]));
      if (isCollective) continue;  // one block per channel by design
      examined.push_back({t, i});
    }
  }
  // What the rule reads of each kernel's occupancy (24 bytes a kernel examined, not a
  // whole KernelOccupancy's 72).
  struct Occupancy {
    double achievedPct = 0, theoreticalPct = 0;
    OccupancyLimiter limiter = OccupancyLimiter::Grid;
    bool known = false;  // the launch shape is recorded
  };
  std::vector<Occupancy> occupancy(examined.size());
  const LazyArgs::KeyFilter occupancyKeys = [](size_t, std::string_view key) { return isOccupancyArgKey(key); };
  c.trace.argsOfEach(
      examined,
      [&](size_t k, std::vector<NamedArg>&& args) {
        const Track& track = c.trace.tracks[examined[k].track];
        const auto dev = devices.find(track.device);
        if (const auto o = kernelOccupancy(args, dev != devices.end() ? dev->second : SmLimits{}))
          occupancy[k] = {o->achievedPct, o->theoreticalPct, o->limiter, true};
      },
      nullptr, &occupancyKeys);
  for (size_t k = 0; k < examined.size(); ++k) {
    const Occupancy* occ = occupancy[k].known ? &occupancy[k] : nullptr;
    const uint32_t t = examined[k].track, i = examined[k].index;
    const SliceColumns& s = c.trace.tracks[t].slices;
    if (!occ || occ->achievedPct >= kTargetPct) continue;
    if (occ->limiter != OccupancyLimiter::Grid && tiledLibraryKernel(s.name[i])) continue;
    const double target =
        occ->limiter == OccupancyLimiter::Grid ? std::min(kTargetPct, occ->theoreticalPct) : kTargetPct;
    if (target <= 0 || occ->achievedPct >= target) continue;
    const TimeNs kt = static_cast<TimeNs>(static_cast<double>(s.dur[i]) * (1.0 - occ->achievedPct / target));
    ++kernels;
    addTo(time, s.dur[i]);
    addTo(stake, kt);
    spans.emplace_back(s.start[i], s.end(i));
    addTo(byLimiter[occ->limiter], s.dur[i]);
    weightedPct += occ->achievedPct * static_cast<double>(s.dur[i]);
    if (kt > mostStake) mostStake = kt, example = examined[k];
  }
  stake = std::min(stake, c.covered(std::move(spans)));  // kernels side by side gain no more than their span
  if (kernels == 0 || c.pct(stake) < 1.0) return;
  OccupancyLimiter main = byLimiter.begin()->first;
  std::string limits;
  for (const auto& [l, lt] : byLimiter) {
    if (lt > byLimiter[main]) main = l;
    limits += std::string(limits.empty() ? "" : ", ") + limiterName(l) + " " + fmtMs(lt);
  }
  Advice a;
  a.id = "low_occupancy";
  a.title = std::to_string(kernels) + " kernels of 10 µs or more run under 25 % achieved occupancy (" + fmtMs(time) +
            " of GPU time; limited by " + limits + ")";
  switch (main) {
    case OccupancyLimiter::Grid:
      a.action =
          "the grids have too few blocks to fill the SMs: larger batches, fusing the op with its neighbours, split-K "
          "or smaller tiles for GEMMs, or running it beside other work on another stream";
      break;
    case OccupancyLimiter::Registers:
      a.action =
          "registers per thread limit the resident warps: __launch_bounds__ or -maxrregcount for your own kernels, "
          "fewer warps or smaller blocks in Triton configs; check spills with Nsight Compute";
      break;
    case OccupancyLimiter::SharedMemory:
      a.action =
          "shared memory per block limits the resident blocks: smaller tiles or fewer pipeline stages (Triton "
          "num_stages)";
      break;
    case OccupancyLimiter::BlockSize:
      a.action = "blocks are too small for the SM's block limit: launch at least 128 threads per block";
      break;
  }
  a.atStake = stake;
  a.sharePct = c.pct(stake);
  a.where = example;
  a.evidence = {{"low_occupancy_kernels", static_cast<double>(kernels)},
                {"low_occupancy_kernel_us", us(time)},
                {"mean_achieved_occupancy_pct", weightedPct / static_cast<double>(std::max<TimeNs>(1, time))}};
  for (const auto& [l, t] : byLimiter) {
    std::string key = std::string("limited_by_") + limiterName(l) + "_us";
    std::replace(key.begin(), key.end(), ' ', '_');
    a.evidence.emplace_back(key, us(t));
  }
  out.push_back(std::move(a));
}

// Time between iterations and inside DataLoader spans: the GPU waits for input. Fires
// above 5 % of the iterations' time. Only DataLoader spans inside something (a step)
// count: a top-level one lies between steps, in the gap already counted.
void dataLoading(const Context& c, const std::vector<Iteration>& its, std::vector<Advice>& out) {
  if (its.size() < 2) return;
  TimeNs between = 0;
  std::vector<IntervalSet::Interval> gaps;
  for (size_t i = 1; i < its.size(); ++i)
    if (its[i].start > its[i - 1].end) {
      addTo(between, its[i].start - its[i - 1].end);
      gaps.emplace_back(its[i - 1].end, its[i].start);
    }
  std::vector<IntervalSet::Interval> spans;
  std::optional<EventRef> example;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const SliceColumns& s = c.trace.tracks[t].slices;
    if (c.trace.tracks[t].kind != TrackKind::Thread || !c.in(t)) continue;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (s.parent[i] >= 0 && startsWith(c.trace.str(s.name[i]), "enumerate(DataLoader)") && s.start[i] >= c.start &&
          s.start[i] < c.end) {
        spans.emplace_back(s.start[i], s.end(i));
        if (!example) example = EventRef{t, i};
      }
  }
  const TimeNs loader = c.covered(spans);
  spans.insert(spans.end(), gaps.begin(), gaps.end());
  const TimeNs total = c.covered(std::move(spans));  // a loader span between steps counts once
  if (c.pct(total) < 5.0) return;
  Advice a;
  a.id = "data_loading";
  a.title = "input loading takes " + fmtMs(total) + " (" + fmtPct(c.pct(total)) + "): " + fmtMs(loader) +
            " in DataLoader, " + fmtMs(between) + " between iterations";
  a.action =
      "more DataLoader workers (num_workers), persistent_workers=True, prefetch_factor, or preprocessing on the GPU";
  a.atStake = total;
  a.sharePct = c.pct(total);
  a.where = example;
  a.evidence = {{"dataloader_us", us(loader)}, {"between_iterations_us", us(between)}};
  out.push_back(std::move(a));
}

// Collective kernels with no other GPU work (kernels, copies) running beside them, inside
// the time examined: in a session each rank on its own tracks, the rank with the most
// exposed speaking for the job. (It was the whole trace's collective time over the
// iterations' span: 113.6 % on TraceLens' MI300X DDP step.) Fires above 5 % of the time
// examined.
void exposedCommunication(const Context& c, std::vector<Advice>& out) {
  std::vector<IntervalSet::Interval> comm, other;
  std::optional<EventRef> example;
  TimeNs longest = 0;
  for (uint32_t t = 0; t < c.trace.tracks.size(); ++t) {
    const Track& track = c.trace.tracks[t];
    if (track.kind != TrackKind::GpuStream || !c.in(t)) continue;
    const SliceColumns& s = track.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isGpuWork(s.kind[i]) || s.end(i) <= c.start || s.start[i] >= c.end) continue;
      if (s.kind[i] == SliceKind::Kernel && isCollectiveKernelName(c.trace.str(s.name[i]))) {
        comm.emplace_back(s.start[i], s.end(i));
        if (s.dur[i] > longest) longest = s.dur[i], example = EventRef{t, i};
      } else {
        other.emplace_back(s.start[i], s.end(i));
      }
    }
  }
  if (comm.empty()) return;
  const IntervalSet commSet = IntervalSet::fromUnsorted(std::move(comm)).clip(c.start, c.end);
  const IntervalSet otherSet = IntervalSet::fromUnsorted(std::move(other)).clip(c.start, c.end);
  const TimeNs total = commSet.length(), exposed = commSet.lengthOutside(otherSet);
  if (c.pct(exposed) < 5.0) return;
  Advice a;
  a.id = "exposed_communication";
  a.title =
      "collectives run " + fmtMs(exposed) + " per rank with no compute beside them (" + fmtPct(c.pct(exposed)) + ")";
  a.action =
      "overlap communication with compute: DDP bucket_cap_mb, FSDP prefetching (forward_prefetch, "
      "backward_prefetch), or fewer, larger collectives";
  a.atStake = exposed;
  a.sharePct = c.pct(exposed);
  a.where = example;
  a.evidence = {{"collective_us_per_rank", us(total)}, {"exposed_us_per_rank", us(exposed)}};
  out.push_back(std::move(a));
}

// With several ranks, the slowest one against the median.
void stragglers(const Context& c, const RankTable& table, std::vector<Advice>& out) {
  if (table.rows.size() > 1 && !table.stragglers.empty()) {
    const Straggler& s = table.stragglers.front();
    const double medianUs = s.iterationUsMean / (1 + s.excessPct / 100);
    size_t iters = 0;
    for (const RankRow& r : table.rows)
      if (r.rank == s.rank) iters = r.iterationWall.size();
    const TimeNs stake = static_cast<TimeNs>((s.iterationUsMean - medianUs) * 1000.0 * static_cast<double>(iters));
    Advice a;
    a.id = "stragglers";
    a.title = "rank " + std::to_string(s.rank) + " is " + fmtPct(s.excessPct) + " slower than the median rank (" +
              std::to_string(table.stragglers.size()) + " straggler" + (table.stragglers.size() == 1 ? "" : "s") + ")";
    a.action =
        "every rank waits for it at each collective: look at its host (thermal, other jobs), its input shard, or its "
        "GPU";
    a.atStake = stake;
    a.sharePct = c.pct(stake);
    a.evidence = {
        {"rank", static_cast<double>(s.rank)}, {"excess_pct", s.excessPct}, {"iteration_us_mean", s.iterationUsMean}};
    out.push_back(std::move(a));
  }
}

// The single-rank rules over the tracks in mask, in the span of its iterations (or of
// the trace).
std::vector<Advice> adviseTracks(const Trace& trace, std::vector<char> mask, const std::vector<Iteration>& its) {
  Context c{trace, 0, 0, {}, std::move(mask)};
  if (!its.empty()) {
    c.start = its.front().start;
    c.end = its.back().end;
  } else {
    c.start = trace.minTs;
    c.end = trace.maxTs;
  }
  if (c.end <= c.start) return {};
  std::vector<IntervalSet::Interval> gpu;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    if (track.kind != TrackKind::GpuStream || !c.in(t)) continue;
    for (uint32_t i = 0; i < track.slices.size(); ++i)
      if (isGpuWork(track.slices.kind[i])) gpu.emplace_back(track.slices.start[i], track.slices.end(i));
  }
  c.gpu = IntervalSet::fromUnsorted(std::move(gpu)).clip(c.start, c.end);
  std::vector<Advice> out;
  launchBound(c, out);
  smallKernels(c, out);
  hostSync(c, out);
  pageableMemcpy(c, out);
  lowOccupancy(c, out);
  dataLoading(c, its, out);
  exposedCommunication(c, out);
  return out;
}

}  // namespace

std::vector<Advice> advise(const Trace& trace) { return advise(trace, rankTable(trace)); }

std::vector<Advice> advise(const Trace& trace, const RankTable& ranks) {
  std::vector<Advice> out;
  if (trace.meta.sessionRanks.empty()) {
    out = adviseTracks(trace, std::vector<char>(trace.tracks.size(), 1), trace.iterations);
  } else {
    // A session: every rank on its own tracks and iterations; per rule the rank with the
    // most at stake speaks for the job, saying how many ranks show the same.
    std::map<std::string, std::pair<Advice, size_t>> worst;
    for (const RankMetrics& m : measureRanks(trace)) {
      std::vector<char> mask(trace.tracks.size(), 0);
      for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        mask[t] = trace.processes[trace.tracks[t].process].rank == m.rank;
      for (Advice& a : adviseTracks(trace, std::move(mask), m.iterations)) {
        a.title = "rank " + std::to_string(m.rank.value_or(0)) + ": " + a.title;
        auto [it, fresh] = worst.try_emplace(a.id, a, 0);
        ++it->second.second;
        if (!fresh && a.atStake > it->second.first.atStake) it->second.first = std::move(a);
      }
    }
    for (auto& [id, entry] : worst) {
      entry.first.evidence.emplace_back("ranks_affected", static_cast<double>(entry.second));
      out.push_back(std::move(entry.first));
    }
  }
  Context whole{trace, 0, 0, {}, {}};
  whole.start = trace.iterations.empty() ? trace.minTs : trace.iterations.front().start;
  whole.end = trace.iterations.empty() ? trace.maxTs : trace.iterations.back().end;
  if (whole.end > whole.start) stragglers(whole, ranks, out);
  std::stable_sort(out.begin(), out.end(), [](const Advice& a, const Advice& b) { return a.atStake > b.atStake; });
  return out;
}

}  // namespace opscope
