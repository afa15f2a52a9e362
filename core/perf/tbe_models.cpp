#include "perf/tbe_models.h"

#include "perf/op_inputs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace opscope {

namespace {

constexpr std::string_view kForwardPrefix = "fbgemm::split_embedding_codegen_lookup_";
constexpr std::string_view kForwardSuffix = "_function";
constexpr std::string_view kBackwardPrefix = "CppNode<SplitLookupFunction_";
constexpr std::string_view kBackwardSuffix = "_Op>";
// No FBGEMM table is wider (its kernels stop at 1024 floats; 2048 in later releases).
constexpr int64_t kMaxDim = 4096;
// How far back a backward looks for its forward among unpaired ones of its optimizer
// and batch: autograd runs a step's backwards right after its forwards, so the match is
// among the last few; the bound keeps a trace of unmatched calls linear.
constexpr size_t kPairWindow = 64;
// No real table, batch or index count comes near 2^40: past it a damaged file's dims
// are refused, so products of two of them (T·B, rows·D) stay far inside int64.
constexpr int64_t kMaxCount = int64_t{1} << 40;

std::string_view backwardOptimizer(std::string_view name) {
  if (name.starts_with("torch::autograd::")) name.remove_prefix(17);
  if (!name.starts_with(kBackwardPrefix) || !name.ends_with(kBackwardSuffix)) return {};
  return name.substr(kBackwardPrefix.size(), name.size() - kBackwardPrefix.size() - kBackwardSuffix.size());
}

std::string_view forwardOptimizer(std::string_view name) {
  if (!name.starts_with(kForwardPrefix) || !name.ends_with(kForwardSuffix)) return {};
  return name.substr(kForwardPrefix.size(), name.size() - kForwardPrefix.size() - kForwardSuffix.size());
}

// The 1-D tensor of input i: its length, or -1 (also when larger than kMaxCount).
int64_t length(const OpShapes& s, size_t i) {
  const auto* t = s.tensor(i);
  return t && t->size() == 1 && (*t)[0] <= kMaxCount ? (*t)[0] : -1;
}

std::optional<TbeCall> forwardCall(std::string_view optimizer, const OpShapes& s) {
  if (optimizer.empty() || optimizer == "dense") return std::nullopt;
  TbeCall c;
  c.optimizer = std::string(optimizer);
  const int64_t t = length(s, 4), dOffsets = length(s, 6), n = length(s, 11), offsets = length(s, 12);
  const int64_t weights = length(s, 1), uvm = length(s, 2);
  if (t <= 0 || dOffsets != t + 1 || n < 0 || offsets < 1 || (offsets - 1) % t != 0 || weights < 0) return std::nullopt;
  if (uvm > 0) return std::nullopt;  // tables in host memory: not the DRAM model
  if (const auto* cache = s.tensor(3); cache && cache->size() == 2 && (*cache)[0] > 0 && (*cache)[1] > 0)
    return std::nullopt;
  c.tables = t;
  c.batch = (offsets - 1) / t;
  c.indices = n;
  c.weightElems = weights;
  c.weighted = length(s, 14) >= 0;
  if (c.batch <= 0) return std::nullopt;
  if (const auto d = s.concreteInts(7); d && d->size() == 1 && d->front() >= t && d->front() <= t * kMaxDim) {
    c.totalDim = d->front();
  } else if (optimizer.starts_with("rowwise_adagrad")) {
    // One momentum float per row (momentum1_dev, input 20): mean D = weights / rows.
    const int64_t rows = length(s, 20);
    if (rows >= t && weights % rows == 0 && weights / rows >= 1 && weights / rows <= kMaxDim)
      c.totalDim = weights / rows * t;
  }
  return c;
}

std::optional<TbeCall> backwardCall(std::string_view optimizer, const OpShapes& s) {
  if (optimizer.empty()) return std::nullopt;
  const auto* grad = s.tensor(0);
  if (!grad || grad->size() != 2 || (*grad)[0] <= 0 || (*grad)[1] <= 0 || (*grad)[0] > kMaxCount ||
      (*grad)[1] > kMaxCount)
    return std::nullopt;
  TbeCall c;
  c.backward = true;
  c.optimizer = std::string(optimizer);
  c.batch = (*grad)[0];
  c.totalDim = (*grad)[1];
  return c;
}

// A row of floats in whole 32-byte sectors.
double sectorBytes(int64_t floats) { return std::ceil(static_cast<double>(floats) * 4 / 32) * 32; }

// The optimizer's update: FBGEMM's cta_per_row (long segments) and warp_per_row kernels.
bool isUpdateKernel(std::string_view n) {
  return n.find("backward_codegen_") != std::string_view::npos && n.find("_per_row") != std::string_view::npos;
}

}  // namespace

std::optional<TbeCall> tbeCall(std::string_view opName, const OpShapes& shapes) {
  if (!shapes.recorded()) return std::nullopt;
  if (auto f = forwardOptimizer(opName); !f.empty()) return forwardCall(f, shapes);
  if (auto b = backwardOptimizer(opName); !b.empty()) return backwardCall(b, shapes);
  return std::nullopt;
}

void pairTbeCalls(std::vector<TbeCall*>& calls) {
  // Unpaired forwards by group, optimizer and batch, oldest first.
  std::map<std::tuple<uint32_t, std::string, int64_t>, std::vector<TbeCall*>> open;
  for (TbeCall* c : calls) {
    if (!c->backward) {
      open[{c->group, c->optimizer, c->batch}].push_back(c);
      continue;
    }
    auto it = open.find({c->group, c->optimizer, c->batch});
    if (it == open.end()) continue;
    std::vector<TbeCall*>& fwd = it->second;
    const size_t stop = fwd.size() > kPairWindow ? fwd.size() - kPairWindow : 0;
    for (size_t i = fwd.size(); i-- > stop;) {
      TbeCall& f = *fwd[i];
      if (c->totalDim % f.tables != 0 || (f.totalDim != 0 && f.totalDim != c->totalDim)) continue;
      if (c->totalDim / f.tables > kMaxDim) continue;
      f.totalDim = c->totalDim;
      c->tables = f.tables;
      c->indices = f.indices;
      c->weightElems = f.weightElems;
      c->weighted = f.weighted;
      f.paired = c->paired = true;
      fwd.erase(fwd.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
}

std::unordered_map<uint64_t, TbeCall> tbeCallsOf(const OpInputs& inputs) {
  const Trace& trace = inputs.trace();
  std::unordered_map<uint64_t, TbeCall> out;
  // The names first (a few thousand strings): a trace without FBGEMM is not walked.
  std::vector<bool> tbeName(trace.strings.size(), false);
  bool any = false;
  for (StringId id = 0; id < trace.strings.size(); ++id) {
    const std::string_view n = trace.str(id);
    if (forwardOptimizer(n).empty() && backwardOptimizer(n).empty()) continue;
    tbeName[id] = true;
    any = true;
  }
  if (!any) return out;
  std::vector<std::pair<TimeNs, uint64_t>> order;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isOpKind(s.kind[i]) || s.name[i] >= tbeName.size() || !tbeName[s.name[i]]) continue;
      const EventRef op{t, i};
      if (auto c = tbeCall(trace.name(op), inputs.shapes(op))) {
        c->group = trace.tracks[t].process;
        out.emplace(op.packed(), std::move(*c));
        order.emplace_back(s.start[i], op.packed());
      }
    }
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<TbeCall*> calls;
  calls.reserve(order.size());
  for (const auto& [start, packed] : order) calls.push_back(&out.at(packed));
  pairTbeCalls(calls);
  return out;
}

std::optional<OpPrediction> tbePrediction(const GpuSpec& g, const TbeCall& c,
                                          const std::vector<KernelLaunch>& kernels) {
  if (!c.complete()) return std::nullopt;
  const int64_t d = c.dim();
  const double n = static_cast<double>(c.indices);
  const double bags = static_cast<double>(c.tables) * static_cast<double>(c.batch);
  EmbeddingShape e;
  e.batch = c.batch;
  e.tables = c.tables;
  e.bag = c.bag();
  e.dim = d;
  e.rows = std::max<int64_t>(1, c.weightElems / c.totalDim);  // mean rows per table
  if (!c.backward) {
    size_t others = 0;
    for (const KernelLaunch& k : kernels) {
      if (k.name.find("split_embedding") != std::string_view::npos &&
          k.name.find("forward") != std::string_view::npos) {
        if (k.block[1] > 0) e.rowsPerBlock = k.block[1];
      } else {
        ++others;
      }
    }
    const double us = embeddingForwardUs(g, e) + static_cast<double>(others) * g.kernelFloorUs;
    return OpPrediction{std::max(us, g.kernelFloorUs), "TBE forward"};
  }
  const bool sgd = c.optimizer == "sgd";
  if (!sgd && c.optimizer != "rowwise_adagrad") return std::nullopt;
  double us = 0;
  size_t prepKernels = 0;
  for (const KernelLaunch& k : kernels)
    if (!isUpdateKernel(k.name) && k.name.find("grad_indice_weights") == std::string_view::npos) ++prepKernels;
  if (c.indices > 0) {
    us += sgd ? embeddingBackwardSgdUs(g, e) : embeddingBackwardRowwiseAdagradUs(g, e);
    // The indices sorted by (table, row): linearize (offsets, indices in; linear indices
    // and bag infos out), a radix sort of (int64 key, int32 value) pairs — one histogram
    // read, then a read and write per 8-bit pass over the bits the total row count
    // needs — and the run-length segments of equal rows (unique, counts, two scans).
    const double rows = static_cast<double>(c.weightElems) / static_cast<double>(d);
    const double passes = std::ceil(std::max(1.0, std::ceil(std::log2(std::max(2.0, rows)))) / 8);
    const double bytes = 8 * (bags + 1) + n * 20 + n * 8 + passes * 24 * n + n * 48;
    us += memoryBoundUs(g, bytes) + static_cast<double>(prepKernels > 0 ? prepKernels - 1 : 0) * g.kernelFloorUs;
  } else {
    us += static_cast<double>(prepKernels) * g.kernelFloorUs;
  }
  // d(loss)/d(weight_i), the dot of the bag's gradient row and the looked-up row: each
  // bag's gradient row is read (empty bags too) and a table row per index.
  if (c.weighted) us += memoryBoundUs(g, 8 * (bags + 1) + (bags + n) * sectorBytes(d) + n * 4);
  return OpPrediction{std::max(us, g.kernelFloorUs), sgd ? "TBE backward (sgd)" : "TBE backward (rowwise adagrad)"};
}

}  // namespace opscope
