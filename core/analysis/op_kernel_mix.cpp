#include "analysis/op_kernel_mix.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/op_index.h"
#include "hierarchy/queries.h"

namespace opscope {

namespace {

struct VariantBuild {
  uint64_t calls = 0;
  TimeNs time = 0;
  std::vector<std::pair<StringId, uint64_t>> events;  // (kernel name, packed ref)
};

OpVariant finishVariant(const Trace& trace, VariantBuild&& v, const std::vector<int32_t>& classOfName) {
  OpVariant out;
  out.calls = v.calls;
  out.time = v.time;
  std::unordered_map<StringId, size_t> seg;
  for (const auto& [name, ref] : v.events) {
    auto [it, fresh] = seg.try_emplace(name, out.segments.size());
    if (fresh) out.segments.push_back(MixSegment{.kernel = name, .cls = classOfName[name]});
    MixSegment& m = out.segments[it->second];
    ++m.count;
    addTo(m.time, trace.dur(EventRef::unpack(ref)));
  }
  std::sort(out.segments.begin(), out.segments.end(), [](const MixSegment& a, const MixSegment& b) {
    return a.time != b.time ? a.time > b.time : a.kernel < b.kernel;
  });
  std::unordered_map<StringId, size_t> rank;
  for (size_t i = 0; i < out.segments.size(); ++i) rank[out.segments[i].kernel] = i;
  std::stable_sort(v.events.begin(), v.events.end(),
                   [&rank](const auto& a, const auto& b) { return rank[a.first] < rank[b.first]; });
  for (uint32_t i = 0; i < v.events.size(); ++i) {
    MixSegment& m = out.segments[rank[v.events[i].first]];
    if (m.endEvent == 0) m.firstEvent = i;
    m.endEvent = i + 1;
    out.events.push_back(v.events[i].second);
  }
  for (MixSegment& m : out.segments)
    m.fraction = out.time ? static_cast<double>(m.time) / static_cast<double>(out.time) : 0;
  return out;
}

}  // namespace

OpKernelMixes opKernelMixes(const Trace& trace, const KernelClassifier& classifier, std::optional<TimeWindow> window,
                            size_t topOps, size_t maxVariants) {
  OpKernelMixes result;
  std::vector<int32_t> classOfName;
  result.classes = classifyGpuNames(trace, classifier, classOfName);
  const OpIndex index(trace);
  // (top-level op, GPU event) for every GPU event in the window with an op.
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    const size_t first = window ? s.lowerBound(window->start) : 0;
    const size_t last = window ? s.lowerBound(window->end) : s.size();
    for (size_t i = first; i < last; ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const EventRef ref{t, static_cast<uint32_t>(i)};
      const auto launch = launchOf(trace, ref);
      if (!launch) continue;
      const int32_t top = index.topOp(launch->track, launch->index);
      if (top < 0) continue;
      pairs.emplace_back(EventRef{launch->track, static_cast<uint32_t>(top)}.packed(), ref.packed());
    }
  }
  std::sort(pairs.begin(), pairs.end());
  struct OpBuild {
    uint64_t calls = 0;
    TimeNs time = 0;
    std::map<std::vector<StringId>, VariantBuild> variants;
  };
  std::unordered_map<StringId, OpBuild> ops;
  std::vector<StringId> key;
  for (size_t a = 0; a < pairs.size();) {
    size_t b = a;
    while (b < pairs.size() && pairs[b].first == pairs[a].first) ++b;
    key.clear();
    TimeNs callTime = 0;
    for (size_t i = a; i < b; ++i) {
      const EventRef g = EventRef::unpack(pairs[i].second);
      key.push_back(trace.nameId(g));
      addTo(callTime, trace.dur(g));
    }
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
    OpBuild& op = ops[trace.nameId(EventRef::unpack(pairs[a].first))];
    ++op.calls;
    op.time += callTime;
    VariantBuild& v = op.variants[key];
    ++v.calls;
    v.time += callTime;
    for (size_t i = a; i < b; ++i)
      v.events.emplace_back(trace.nameId(EventRef::unpack(pairs[i].second)), pairs[i].second);
    addTo(result.total, callTime);
    a = b;
  }
  std::vector<std::pair<StringId, OpBuild*>> order;
  for (auto& [name, op] : ops) order.emplace_back(name, &op);
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    return x.second->time != y.second->time ? x.second->time > y.second->time : x.first < y.first;
  });
  if (order.size() > topOps) order.resize(topOps);
  for (auto& [name, op] : order) {
    OpMix mix;
    mix.name = name;
    mix.calls = op->calls;
    mix.time = op->time;
    std::vector<VariantBuild*> vs;
    for (auto& [k, v] : op->variants) vs.push_back(&v);
    std::stable_sort(vs.begin(), vs.end(),
                     [](const VariantBuild* x, const VariantBuild* y) { return x->time > y->time; });
    for (size_t i = 0; i < vs.size(); ++i) {
      if (i < maxVariants) {
        mix.variants.push_back(finishVariant(trace, std::move(*vs[i]), classOfName));
      } else {
        ++mix.hiddenVariants;
        mix.hiddenTime += vs[i]->time;
      }
    }
    result.ops.push_back(std::move(mix));
  }
  return result;
}

OpKernelTable opKernelTable(const Trace& trace, const KernelClassifier& classifier, std::string_view opName,
                            bool byShape, std::optional<TimeWindow> window) {
  OpKernelTable table;
  std::vector<int32_t> classOfName;
  table.classes = classifyGpuNames(trace, classifier, classOfName);
  // The calls of opName that no call of it encloses, in track and row order; by shape,
  // their "Input Dims" read in one pass over the file (Trace::argsOfEach), not one read a
  // call (an op called 10^5 times on a large trace).
  std::vector<EventRef> calls;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    const size_t first = window ? s.lowerBound(window->start) : 0;
    const size_t last = window ? s.lowerBound(window->end) : s.size();
    for (size_t i = first; i < last; ++i) {
      if (!isOpKind(s.kind[i]) || trace.str(s.name[i]) != opName) continue;
      const EventRef op{t, static_cast<uint32_t>(i)};
      bool nested = false;
      for (auto p = trace.parent(op); p && !nested; p = trace.parent(*p)) nested = trace.nameId(*p) == s.name[i];
      if (!nested) calls.push_back(op);
    }
  }
  // By shape: each call's text as an index into shapeTexts (a distinct text kept once: a
  // million calls share a few dozen shapes); 0, the empty text, for none.
  std::vector<std::string> shapeTexts{std::string()};
  std::vector<uint32_t> shapeOf;
  if (byShape) {
    shapeOf.assign(calls.size(), 0);
    std::unordered_map<std::string, uint32_t> idOfText{{std::string(), 0}};
    const LazyArgs::KeyFilter inputDims = [](size_t, std::string_view key) { return key == "Input Dims"; };
    trace.argsOfEach(
        calls,
        [&](size_t k, std::vector<NamedArg>&& args) {
          const std::string* text = nullptr;
          for (const NamedArg& a : args)
            if (a.key == "Input Dims") text = &a.text;  // the last one, as read one call at a time
          if (!text) return;
          const auto [it, fresh] = idOfText.try_emplace(*text, static_cast<uint32_t>(shapeTexts.size()));
          if (fresh) shapeTexts.push_back(*text);
          shapeOf[k] = it->second;
        },
        &table.error, &inputDims);
  }
  std::vector<int64_t> groupOfShape(shapeTexts.size(), -1);  // groups made in the calls' order
  std::vector<std::unordered_map<StringId, size_t>> rowOf;
  for (size_t c = 0; c < calls.size(); ++c) {
    const EventRef op = calls[c];
    const uint32_t shape = byShape ? shapeOf[c] : 0;
    if (groupOfShape[shape] < 0) {
      groupOfShape[shape] = static_cast<int64_t>(table.groups.size());
      table.groups.emplace_back();
      table.groups.back().shapes = shapeTexts[shape];
      rowOf.emplace_back();
    }
    const size_t group = static_cast<size_t>(groupOfShape[shape]);
    OpShapeGroup& g = table.groups[group];
    ++g.calls;
    addTo(g.cpuTime, trace.dur(op));
    for (EventRef gpu : gpuEventsOf(trace, op)) {
      const StringId k = trace.nameId(gpu);
      auto [rit, rfresh] = rowOf[group].try_emplace(k, g.kernels.size());
      if (rfresh) g.kernels.push_back(OpKernelRow{.kernel = k, .cls = classOfName[k]});
      OpKernelRow& row = g.kernels[rit->second];
      ++row.count;
      addTo(row.total, trace.dur(gpu));
      addTo(g.gpuTime, trace.dur(gpu));
    }
  }
  for (OpShapeGroup& g : table.groups) {
    for (OpKernelRow& r : g.kernels) r.mean = static_cast<double>(r.total) / static_cast<double>(r.count);
    std::sort(g.kernels.begin(), g.kernels.end(), [](const OpKernelRow& a, const OpKernelRow& b) {
      return a.total != b.total ? a.total > b.total : a.kernel < b.kernel;
    });
  }
  std::stable_sort(table.groups.begin(), table.groups.end(),
                   [](const OpShapeGroup& a, const OpShapeGroup& b) { return a.gpuTime > b.gpuTime; });
  return table;
}

}  // namespace opscope
