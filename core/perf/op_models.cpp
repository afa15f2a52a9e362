#include "perf/op_models.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <unordered_map>

#include "analysis/occupancy.h"
#include "analysis/op_index.h"
#include "hierarchy/queries.h"
#include "perf/attention_models.h"
#include "perf/collective_of_op.h"
#include "perf/conv_models.h"
#include "perf/conv_pairing.h"
#include "perf/embedding_bag_models.h"
#include "perf/measured_scaling.h"
#include "perf/op_inputs.h"
#include "perf/tbe_models.h"
#include "perf/triton_models.h"
#include "text/json_text.h"

namespace opscope {

namespace {

double elements(const std::vector<int64_t>& dims) {
  double n = 1;
  for (int64_t d : dims) n *= static_cast<double>(std::max<int64_t>(0, d));
  return n;
}

std::string_view baseName(std::string_view name) {
  if (name.starts_with("aten::")) name.remove_prefix(6);
  return name;
}

enum class MemoryKind { None, Elementwise, Reduction, Concat, Gather };

// Ops whose kernels stream their tensors through DRAM once; how much they write.
MemoryKind memoryKind(std::string_view n) {
  static const char* const elementwise[] = {"add",
                                            "add_",
                                            "sub",
                                            "sub_",
                                            "mul",
                                            "mul_",
                                            "div",
                                            "div_",
                                            "relu",
                                            "relu_",
                                            "threshold_backward",
                                            "sigmoid",
                                            "sigmoid_backward",
                                            "tanh",
                                            "tanh_backward",
                                            "gelu",
                                            "gelu_backward",
                                            "silu",
                                            "silu_backward",
                                            "neg",
                                            "exp",
                                            "log",
                                            "pow",
                                            "sqrt",
                                            "rsqrt",
                                            "clamp",
                                            "clamp_",
                                            "where",
                                            "fill_",
                                            "zero_",
                                            "copy_",
                                            "to",
                                            "_to_copy",
                                            "clone",
                                            "contiguous",
                                            "masked_fill",
                                            "masked_fill_",
                                            "dropout",
                                            "native_dropout",
                                            "native_dropout_backward",
                                            "softmax",
                                            "_softmax",
                                            "log_softmax",
                                            "_log_softmax",
                                            "_softmax_backward_data",
                                            "_log_softmax_backward_data",
                                            "layer_norm",
                                            "native_layer_norm",
                                            "native_layer_norm_backward",
                                            "addcmul_",
                                            "addcdiv_",
                                            "lerp_",
                                            "mse_loss_backward",
                                            "_foreach_add_",
                                            "_foreach_mul_",
                                            "_foreach_addcmul_",
                                            "_foreach_addcdiv_",
                                            "_foreach_lerp_",
                                            "_foreach_sqrt",
                                            "_foreach_div_",
                                            "_foreach_add",
                                            "_foreach_mul",
                                            "_foreach_zero_",
                                            "ones_like",
                                            "zeros_like"};
  static const char* const reduction[] = {
      "sum", "mean", "mse_loss", "norm", "max", "min", "amax", "argmax", "binary_cross_entropy_with_logits"};
  static const char* const concat[] = {"cat", "_cat", "stack"};
  static const char* const gather[] = {"index_select", "embedding", "gather", "index", "take"};
  for (const char* e : elementwise)
    if (n == e) return MemoryKind::Elementwise;
  for (const char* e : reduction)
    if (n == e) return MemoryKind::Reduction;
  for (const char* e : concat)
    if (n == e) return MemoryKind::Concat;
  for (const char* e : gather)
    if (n == e) return MemoryKind::Gather;
  return MemoryKind::None;
}

}  // namespace

const std::vector<int64_t>* OpShapes::tensor(size_t i) const {
  return i < inputs.size() && inputs[i].size() == 1 ? &inputs[i][0] : nullptr;
}

bool OpShapes::innerDimUnaligned() const {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (type(i) == DType::Unknown) continue;  // no element size to judge by
    const double size = dtypeBytes(type(i));
    for (const auto& t : inputs[i])
      if (!t.empty() && t.back() > 1 && std::fmod(static_cast<double>(t.back()) * size, 16.0) != 0) return true;
  }
  return false;
}

double OpShapes::bytes(size_t i) const {
  if (i >= inputs.size()) return 0;
  double b = 0;
  for (const auto& t : inputs[i])
    if (!t.empty()) b += elements(t) * dtypeBytes(type(i));
  return b;
}

std::optional<std::vector<int64_t>> OpShapes::concreteInts(size_t i) const {
  if (i >= concrete.size() || concrete[i].empty()) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(concrete[i], nullptr, false);
  std::vector<int64_t> out;
  if (j.is_number_integer()) {
    out.push_back(j.get<int64_t>());
  } else if (j.is_array()) {
    for (const auto& v : j) {
      if (!v.is_number_integer()) return std::nullopt;
      out.push_back(v.get<int64_t>());
    }
  } else {
    return std::nullopt;
  }
  return out;
}

std::optional<bool> OpShapes::concreteBool(size_t i) const {
  if (i >= concrete.size()) return std::nullopt;
  if (concrete[i] == "True") return true;
  if (concrete[i] == "False") return false;
  return std::nullopt;
}

OpShapes opShapesFromArgs(const std::vector<NamedArg>& args) {
  OpShapes s;
  for (const NamedArg& a : args) {
    if (a.key == "Input Dims" && a.type == ArgType::Json) {
      const nlohmann::json j = nlohmann::json::parse(a.text, nullptr, false);
      if (!j.is_array()) continue;
      s.dimsText = jsonText(j);  // compact: the raw text may be pretty-printed over lines
      for (const auto& input : j) {
        std::vector<std::vector<int64_t>> tensors;
        if (input.is_array() && !input.empty() && input[0].is_array()) {  // a tensor list
          for (const auto& t : input) {
            std::vector<int64_t> dims;
            if (t.is_array())
              for (const auto& d : t)
                if (d.is_number_integer()) dims.push_back(d.get<int64_t>());
            tensors.push_back(std::move(dims));
          }
        } else if (input.is_array()) {
          std::vector<int64_t> dims;
          for (const auto& d : input)
            if (d.is_number_integer()) dims.push_back(d.get<int64_t>());
          if (!dims.empty()) tensors.push_back(std::move(dims));
        }
        s.inputs.push_back(std::move(tensors));
      }
    } else if (a.key == "Concrete Inputs" && a.type == ArgType::Json) {
      const nlohmann::json j = nlohmann::json::parse(a.text, nullptr, false);
      if (!j.is_array()) continue;
      for (const auto& c : j) s.concrete.push_back(c.is_string() ? c.get<std::string>() : std::string());
    } else if (a.key == "Input type" && a.type == ArgType::Json) {
      const nlohmann::json j = nlohmann::json::parse(a.text, nullptr, false);
      if (!j.is_array()) continue;
      for (const auto& t : j)
        s.types.push_back(t.is_string() ? dtypeFromProfilerName(t.get<std::string>()) : DType::Unknown);
    }
  }
  return s;
}

std::optional<GemmShape> OpModels::gemmShape(std::string_view name, const OpShapes& s) {
  const std::string_view n = baseName(name);
  auto dims = [&](size_t i) -> const std::vector<int64_t>* { return s.tensor(i); };
  GemmShape g;
  if (n == "mm" || n == "addmm") {
    const size_t a = n == "mm" ? 0 : 1;
    const auto *x = dims(a), *y = dims(a + 1);
    if (!x || !y || x->size() != 2 || y->size() != 2 || (*x)[1] != (*y)[0]) return std::nullopt;
    g = {1, (*x)[0], (*y)[1], (*x)[1], s.type(a)};
  } else if (n == "bmm" || n == "baddbmm") {
    const size_t a = n == "bmm" ? 0 : 1;
    const auto *x = dims(a), *y = dims(a + 1);
    if (!x || !y || x->size() != 3 || y->size() != 3 || (*x)[2] != (*y)[1]) return std::nullopt;
    g = {(*x)[0], (*x)[1], (*y)[2], (*x)[2], s.type(a)};
  } else if (n == "linear") {
    const auto *x = dims(0), *w = dims(1);
    if (!x || !w || x->empty() || w->size() != 2 || x->back() != (*w)[1]) return std::nullopt;
    const int64_t m = std::accumulate(x->begin(), x->end() - 1, int64_t{1}, std::multiplies<>());
    g = {1, m, (*w)[0], x->back(), s.type(0)};
  } else if (n == "matmul") {
    const auto *x = dims(0), *y = dims(1);
    if (!x || !y || x->size() < 2 || y->size() < 2) return std::nullopt;
    const int64_t k = x->back();
    if ((*y)[y->size() - 2] != k) return std::nullopt;
    if (y->size() == 2) {  // batch dims of x fold into M
      const int64_t m = std::accumulate(x->begin(), x->end() - 1, int64_t{1}, std::multiplies<>());
      g = {1, m, y->back(), k, s.type(0)};
    } else {
      const int64_t batch = std::accumulate(x->begin(), x->end() - 2, int64_t{1}, std::multiplies<>());
      g = {batch, (*x)[x->size() - 2], y->back(), k, s.type(0)};
    }
  } else {
    return std::nullopt;
  }
  if (g.batch <= 0 || g.m <= 0 || g.n <= 0 || g.k <= 0) return std::nullopt;
  return g;
}

std::optional<OpPrediction> OpModels::scaled(std::optional<OpPrediction> p) const {
  if (!p || efficiency_.empty() || p->us <= gpu_.kernelFloorUs) return p;
  if (auto it = efficiency_.find(p->model); it != efficiency_.end() && it->second > 0)
    p->us = std::max(p->us / it->second, gpu_.kernelFloorUs);
  return p;
}

MathPath OpModels::pathOf(DType t, const std::vector<KernelLaunch>& kernels) const {
  MathPath p = mathPath(gpu_, t, kernels);
  // Another GPU's kernels: its library picks kernels built for it (an A100 trace's
  // sm80 kernels are no sign that an H100 would run them).
  if (ranOnOther_) p.legacyTensorCores = false;
  return p;
}

OpPrediction OpModels::collective(const CollectiveMessage& c) const {
  OpPrediction p =
      *scaled(OpPrediction{collectiveUs(gpu_, c), std::string("collective ") + collectiveKindName(c.kind)});
  p.bytes = collectiveBusBytes(c);
  // The link as collective_models.h prices a ring: NVLink one way (PCIe without it) inside
  // a node, capped by the node's NICs across nodes.
  const double intra = gpu_.nvlinkGBs > 0 ? gpu_.nvlinkGBs / 2 : gpu_.pcieGBs;
  p.linkGBs = c.groupSize > gpu_.gpusPerNode && gpu_.networkGBs > 0
                  ? std::min(intra, gpu_.gpusPerNode * gpu_.networkGBs)
                  : intra;
  return p;
}

std::optional<OpPrediction> OpModels::scaledFromMeasured(const Trace& trace,
                                                         const std::vector<EventRef>& gpuEvents) const {
  if (!ranOnOther_ || !ranOn_ || gpuEvents.empty()) return std::nullopt;
  TimeNs total = 0;
  for (EventRef g : gpuEvents) addTo(total, scaledToGpu(*ranOn_, gpu_, trace.name(g), trace.kind(g), trace.dur(g)));
  return OpPrediction{static_cast<double>(total) / 1000.0, kScaledFromMeasured};
}

void OpModels::setKernelsRanOn(const GpuSpec& g) {
  ranOn_ = g;
  ranOnOther_ = !iequal(g.name, gpu_.name);
  gridScale_ = ranOnOther_ && g.sms > 0 && gpu_.sms > 0 ? static_cast<double>(gpu_.sms) / g.sms : 1.0;
}

OpPrediction OpModels::learned(OpPrediction p, size_t gpuEvents, std::string_view op,
                               std::string_view dtypeCurve) const {
  p.datasheetUs = p.us;
  if (!learned_ || !learnsEfficiency(p.model)) return p;
  const double perEvent = p.us / static_cast<double>(std::max<size_t>(gpuEvents, 1));
  // An op the datasheet puts at the kernel floor says nothing about its model's
  // efficiency: it takes the GPU's learned floor curve (kFloorModel) first.
  const bool atFloor = gpu_.atKernelFloor(p.us);
  const EfficiencyCurve* c = atFloor ? learned_->find(gpu_, kFloorModel, perEvent, &p.curve) : nullptr;
  if (!c) c = learned_->find(gpu_, p.model, perEvent, &p.curve, op, dtypeCurve);
  if (!c) {
    p.curve = "none";
    return p;
  }
  p.us *= c->ratioAt(perEvent);
  return p;
}

std::optional<OpPrediction> OpModels::datasheet(std::string_view name, const OpShapes& s,
                                                const std::vector<KernelLaunch>& kernels) const {
  if (!s.recorded()) return std::nullopt;
  if (auto g = gemmShape(name, s)) {
    const MathPath path = pathOf(g->dtype, kernels);
    g->tf32 = path.tf32;
    g->legacyTensorCores = path.legacyTensorCores;
    g->grid = path.grid;
    const bool tc = onTensorCores(g->dtype, g->tf32);
    // The work: 2·B·M·N·K, plus B·M·N for a bias added (linear's input 2, addmm's and
    // baddbmm's input 0), as TraceLens counts it; the time model ignores the bias.
    const std::string_view n = baseName(name);
    const auto* bias = n == "linear" ? s.tensor(2) : n == "addmm" || n == "baddbmm" ? s.tensor(0) : nullptr;
    const double flops =
        gemmFlops(*g) + (bias && !bias->empty()
                             ? static_cast<double>(g->batch) * static_cast<double>(g->m) * static_cast<double>(g->n)
                             : 0.0);
    if (microbench_ && microbench_->gemm)
      return withWork(OpPrediction{microbench_->gemm->predictUs(gpu_, *g), "gemm microbenchmark"}, flops, gemmBytes(*g),
                      tc);
    return withWork(OpPrediction{gemmRooflineUs(gpu_, *g), g->tf32 ? "gemm roofline (tf32)" : "gemm roofline"}, flops,
                    gemmBytes(*g), tc);
  }
  const std::string_view base = baseName(name);
  if (isConvolutionName(base))
    return convolutionPrediction(gpu_, base, s, pathOf(s.type(0), kernels), kernels, convTable());
  const int64_t grid = widestGrid(kernels);
  if (isTritonKernelName(base)) return tritonPrediction(gpu_, base, s, pathOf(s.type(0), kernels), grid);
  if (auto p = normOrPoolPrediction(gpu_, base, s, grid)) return p;
  if (auto p = attentionPrediction(gpu_, base, s)) return p;
  if (auto p = embeddingBagPrediction(gpu_, base, s)) return p;
  if (base == "nll_loss" || base == "nll_loss_forward" || base == "nll_loss_nd") {
    // Reads the targets and one input element per target (input[i, target[i]]), not the
    // whole input: on a (2048, 50304) input that is 2048 floats, not 412 MB, which
    // matters since its kernel is one block (a grid covering one SM).
    const auto* target = s.tensor(1);
    if (!target || target->empty()) return std::nullopt;
    const double bytes = s.bytes(1) + elements(*target) * dtypeBytes(s.type(0));
    return withWork(OpPrediction{memoryBoundUs(gpu_, bytes, grid), "memory-bound"}, 0, bytes);
  }
  const MemoryKind kind = memoryKind(base);
  if (kind == MemoryKind::None) return std::nullopt;
  double read = 0, largest = 0;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    read += s.bytes(i);
    largest = std::max(largest, s.bytes(i));
  }
  if (read <= 0) return std::nullopt;
  double written = 0;
  switch (kind) {
    case MemoryKind::Elementwise:
      written = largest;
      break;
    case MemoryKind::Reduction:
      written = 0;
      break;
    case MemoryKind::Concat:
      written = read;
      break;
    case MemoryKind::Gather: {
      // Reads the gathered rows and writes them: indices × row size; the table itself
      // is not streamed. Input 0 is the table (embedding: weight, indices).
      const auto* table = s.tensor(0);
      const auto* index = s.tensor(1);
      if (!table || !index || table->size() < 2) return std::nullopt;
      const double row = elements(*table) / static_cast<double>((*table)[0]) * dtypeBytes(s.type(0));
      const double rows = elements(*index);
      read = rows * row + s.bytes(1);
      written = rows * row;
      break;
    }
    case MemoryKind::None:
      break;
  }
  // One operation per element written (element-wise) or read (reductions): the
  // arithmetic intensity a roofline plots them at; copies and gathers do none.
  const double size = std::max(1.0, dtypeBytes(s.type(0)));
  const double flops = kind == MemoryKind::Elementwise ? largest / size
                       : kind == MemoryKind::Reduction ? read / size
                                                       : 0;
  return withWork(OpPrediction{memoryBoundUs(gpu_, read + written, grid), "memory-bound"}, flops, read + written);
}

const ConvMicrobench* OpModels::convTable() const {
  return microbench_ && microbench_->conv ? &*microbench_->conv : nullptr;
}

std::optional<OpPrediction> OpModels::convolution(const ConvProblem& p,
                                                  const std::vector<KernelLaunch>& kernels) const {
  return scaled(convolutionPrediction(gpu_, p, pathOf(p.dtype, kernels), kernels, convTable()));
}

std::optional<OpPrediction> OpModels::tbe(const TbeCall& call, const std::vector<KernelLaunch>& kernels) const {
  return scaled(tbePrediction(gpu_, call, kernels));
}

std::optional<OpPrediction> OpModels::hostCopy(const OpShapes& s) const {
  const double bytes = s.bytes(0);
  if (!s.recorded() || bytes <= 0 || gpu_.pcieGBs <= 0) return std::nullopt;
  return scaled(OpPrediction{std::max(bytes / (gpu_.pcieGBs * 1e3), gpu_.kernelFloorUs), "PCIe copy"});
}

namespace {

bool movesHostMemory(const Trace& trace, const std::vector<EventRef>& gpu) {
  for (EventRef g : gpu) {
    if (trace.kind(g) != SliceKind::Memcpy) continue;
    const std::string_view n = trace.name(g);
    if (n.find("HtoD") != std::string_view::npos || n.find("DtoH") != std::string_view::npos) return true;
  }
  return false;
}

// The sub-ops and launch calls directly under op, looking through record_function
// annotations and Python frames between them (FBGEMM's All2All_Pooled_Req holds its
// c10d::alltoall_base_ inside a "## alltoall_fwd_single ##" annotation).
std::vector<EventRef> subOpsAndLaunches(const Trace& trace, EventRef op) {
  std::vector<EventRef> out;
  std::vector<EventRef> pending = childrenOf(trace, op);
  std::reverse(pending.begin(), pending.end());
  while (!pending.empty()) {
    const EventRef c = pending.back();
    pending.pop_back();
    const SliceKind k = trace.kind(c);
    if (isOpKind(k) || isLaunchKind(k)) {
      out.push_back(c);
    } else if (k == SliceKind::UserAnnotation || k == SliceKind::PythonFunction) {
      std::vector<EventRef> inner = childrenOf(trace, c);
      pending.insert(pending.end(), inner.rbegin(), inner.rend());
    }
  }
  return out;
}

}  // namespace

std::vector<OpRow> predictOps(const Trace& trace, const OpModels& models, std::optional<TimeWindow> window,
                              const std::map<uint64_t, OpShapes>* extraShapes, std::vector<OpRow>* leaves,
                              const OpInputs* shared) {
  std::optional<OpInputs> own;
  if (!shared) own.emplace(trace);
  const OpInputs& inputs = shared ? *shared : *own;
  const OpIndex& index = inputs.opIndex();
  auto shapesOf = [&](EventRef op) -> const OpShapes& {
    const OpShapes& s = inputs.shapes(op);
    if (!s.recorded() && extraShapes)
      if (auto it = extraShapes->find(op.packed()); it != extraShapes->end()) return it->second;
    return s;
  };
  // Every op's and kernel's args in one pass over the file (op_inputs.h).
  inputs.prefetch(window);
  std::vector<OpRow> rows;
  // FBGEMM's embedding calls, each half completed from the other (tbe_models.h).
  const std::unordered_map<uint64_t, TbeCall>& tbeCalls = inputs.tbeCalls();
  // Convolutions whose shapes lack stride and padding are completed from their backward
  // (inputs.convCalls(): built the first time such an op is met, never on a trace with
  // Concrete Inputs).
  // Own model, else the sum of the sub-ops that caused GPU work when each has one.
  // shapes: op's own (read once by the caller: args may be read back from the file).
  // known: gpuEventsOf(op) when the caller has it (a top-level op's), else nullptr.
  std::function<std::optional<OpPrediction>(EventRef, const OpShapes&, const std::vector<EventRef>*)> predict =
      [&](EventRef op, const OpShapes& shapes, const std::vector<EventRef>* known) -> std::optional<OpPrediction> {
    const std::string_view name = baseName(trace.name(op));
    std::optional<std::vector<EventRef>> gpuEvents;  // op's subtree walked once, when needed
    auto gpu = [&]() -> const std::vector<EventRef>& {
      if (known) return *known;
      if (!gpuEvents) gpuEvents = gpuEventsOf(trace, op);
      return *gpuEvents;
    };
    auto leaf = [&](std::optional<OpPrediction> p) {
      const std::string dtypeCurve =
          p ? curveDtypeKey(shapes.type(0), modelFamily(p->model) == "gemm" && shapes.innerDimUnaligned()) : "";
      if (p) p = models.learned(std::move(*p), gpu().size(), trace.name(op), dtypeCurve);
      if (p && leaves) {
        OpRow l;
        l.op = op;
        l.gpuEvents = gpu().size();
        for (EventRef g : gpu()) addTo(l.measuredGpu, trace.dur(g));
        l.predictedUs = p->us;
        l.model = p->model;
        l.datasheetUs = p->datasheetUs;
        l.curve = p->curve;
        l.dtype = shapes.type(0);
        l.dtypeCurve = dtypeCurve;
        l.shapes = shapes.dimsText;
        l.flops = p->flops;
        l.bytes = p->bytes;
        l.tensorCore = p->tensorCore;
        l.linkGBs = p->linkGBs;
        leaves->push_back(std::move(l));
      }
      return p;
    };
    if ((name == "to" || name == "_to_copy" || name == "copy_") && movesHostMemory(trace, gpu()))
      return leaf(models.hostCopy(shapes));
    std::vector<KernelLaunch> kernels;  // only an op with shapes can have a model of its own
    if (shapes.recorded())
      for (EventRef g : gpu())
        if (trace.kind(g) == SliceKind::Kernel) {
          auto [grid, block] = inputs.launch(g);
          // A what-if GPU's library sizes its grids to its own SMs (an H100 GEMM's 132
          // tiles are 304 on an MI300X): the recorded grid, scaled by their ratio.
          if (grid[0] > 0 && models.gridScale() != 1.0)
            grid[0] = std::max<int64_t>(1, std::llround(static_cast<double>(grid[0]) * models.gridScale()));
          kernels.emplace_back(trace.name(g), grid, block);
        }
    // Under autocast an op casts its inputs and calls itself again (an aten::linear of
    // floats holding three aten::to and an aten::linear of bf16): its own shapes are not
    // what ran, its sub-ops are.
    const auto subOps = subOpsAndLaunches(trace, op);
    const bool reentered = std::any_of(subOps.begin(), subOps.end(), [&](EventRef c) {
      return isOpKind(trace.kind(c)) && trace.name(c) == trace.name(op);
    });
    if (auto it = tbeCalls.find(op.packed()); it != tbeCalls.end())
      if (auto p = models.tbe(it->second, kernels)) return leaf(p);
    if (!reentered) {
      if (shapes.recorded() && needsConvPairing(name, shapes)) {
        const auto& convCalls = inputs.convCalls();
        if (auto it = convCalls.find(op.packed()); it != convCalls.end())
          if (auto p = models.convolution(it->second, kernels)) return leaf(p);
      }
      if (auto p = models.own(trace.name(op), shapes, kernels)) return leaf(p);
    }
    if (auto c = collectiveCallOf(inputs, op, trace.meta.worldSize)) return leaf(models.collective(*c));
    double sum = 0, datasheetSum = 0;
    bool any = false;
    std::string curve;
    for (EventRef c : subOps) {
      if (isLaunchKind(trace.kind(c))) {
        // A launch made by op itself, outside its sub-ops, is unmodelled GPU work.
        if (hasGpuEvents(trace, c)) return std::nullopt;
        continue;
      }
      if (!causesGpuWork(trace, c)) continue;
      auto p = predict(c, shapesOf(c), nullptr);
      if (!p) return std::nullopt;
      sum += p->us;
      datasheetSum += p->datasheetUs;
      curve = !any || curve == p->curve ? p->curve : "several";
      any = true;
    }
    if (!any) return std::nullopt;
    return OpPrediction{sum, "sum of sub-ops", datasheetSum, curve};
  };
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    const size_t first = window ? s.lowerBound(window->start) : 0;
    const size_t last = window ? s.lowerBound(window->end) : s.size();
    for (size_t i = first; i < last; ++i) {
      if (!isOpKind(s.kind[i]) || !index.isTopOp(t, static_cast<uint32_t>(i))) continue;
      const EventRef op{t, static_cast<uint32_t>(i)};
      const std::vector<EventRef> gpu = gpuEventsOf(trace, op);
      if (gpu.empty()) continue;
      OpRow row;
      row.op = op;
      row.gpuEvents = gpu.size();
      for (EventRef g : gpu) addTo(row.measuredGpu, trace.dur(g));
      const OpShapes& shapes = shapesOf(op);
      std::optional<OpPrediction> p = predict(op, shapes, &gpu);
      if (!p && !shapes.recorded()) p = models.scaledFromMeasured(trace, gpu);  // a what-if without shapes
      if (p) {
        row.predictedUs = p->us;
        row.model = p->model;
        row.datasheetUs = p->datasheetUs;
        row.curve = p->curve;
        row.flops = p->flops;
        row.bytes = p->bytes;
        row.tensorCore = p->tensorCore;
      }
      row.shapes = shapes.dimsText;
      rows.push_back(std::move(row));
    }
  }
  // By start time, sorting (start, row) keys instead of the rows (about 200 bytes and
  // four strings each): std::sort makes the same comparisons on the same sequence of
  // starts, so rows of equal start keep the order sorting the rows themselves gave.
  std::vector<std::pair<TimeNs, uint32_t>> order(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) order[i] = {trace.start(rows[i].op), static_cast<uint32_t>(i)};
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<OpRow> sorted;
  sorted.reserve(rows.size());
  for (const auto& [start, i] : order) sorted.push_back(std::move(rows[i]));
  return sorted;
}

}  // namespace opscope
