#pragma once
// Predicted GPU time of host ops from their recorded input shapes ("Input Dims" and
// "Input type", present when the profiler ran with record_shapes=True).
//
// An op's own model comes from its name: GEMMs (addmm, mm, bmm, baddbmm, linear,
// matmul) as a roofline or from a microbenchmark, memory-bound ops (elementwise,
// copies, concatenation, gathers, reductions, norms) as bytes over DRAM bandwidth. An
// op with no model of its own whose every sub-op that launched GPU work has one (a
// backward node over two mm calls) is predicted as their sum. Anything else is "no
// model": reported as such, never as zero. FBGEMM's table-batched embedding ops are
// priced as calls paired across forward and backward (tbe_models.h), convolutions of
// traces without Concrete Inputs from their backward (conv_pairing.h), Triton kernels
// of torch.compile from their launch records (triton_models.h). Copies whose GPU events move data between
// host and device (aten::to, copy_ of a CPU tensor) go over PCIe, not DRAM.
// Collectives (c10d ops, record_param_comms) take their message and group size from
// their own args or, where those are empty (c10d::allreduce_ of a tensor list), from
// the record_param_comms / nccl: annotation nested in them; the group size falls back
// to the trace's world size.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"
#include "perf/collective_models.h"
#include "perf/kernel_models.h"
#include "perf/learned_efficiency.h"
#include "perf/microbenchmarks.h"

namespace opscope {

struct TbeCall;      // tbe_models.h
class OpInputs;      // op_inputs.h
struct ConvProblem;  // conv_problem.h

struct OpShapes {
  // Per input: the tensor's dims; a tensor list is several entries of one input, so
  // bytes add up; scalars and missing inputs are empty.
  std::vector<std::vector<std::vector<int64_t>>> inputs;
  std::vector<DType> types;
  // PyTorch >= 2's "Concrete Inputs": scalars and scalar lists as text ("[2, 2]", "1",
  // "True"), "" for tensors; empty when not recorded.
  std::vector<std::string> concrete;
  std::string dimsText;  // the "Input Dims" arg as written, "" when not recorded
  bool recorded() const { return !dimsText.empty(); }
  // The single tensor of input i, or nullptr (missing, a scalar or a list).
  const std::vector<int64_t>* tensor(size_t i) const;
  DType type(size_t i) const { return i < types.size() ? types[i] : DType::Unknown; }
  double bytes(size_t i) const;  // all tensors of input i
  // Concrete input i as integers ("[3, 3]" -> {3, 3}, "2" -> {2}); nullopt when absent
  // or not integers ("same").
  std::optional<std::vector<int64_t>> concreteInts(size_t i) const;
  std::optional<bool> concreteBool(size_t i) const;  // "True" / "False"
  // Whether a tensor input's innermost dim (over 1 element) is not a whole number of 16
  // bytes: a GEMM on it cannot use the aligned vector/TMA tiles (cuBLAS and hipBLASLt
  // fall back to slower kernels: OWLv2's bmm over 5,185 tokens runs at a quarter of its
  // bandwidth roof, an aligned one of its size near it).
  bool innerDimUnaligned() const;
};
OpShapes opShapesFromArgs(const std::vector<NamedArg>& args);

struct OpPrediction {
  OpPrediction() = default;
  OpPrediction(double us_, std::string model_, double datasheetUs_ = 0, std::string curve_ = {})
      : us(us_), model(std::move(model_)), datasheetUs(datasheetUs_), curve(std::move(curve_)) {}
  double us = 0;
  std::string model;  // "gemm roofline", "gemm microbenchmark", "memory-bound", "sum of sub-ops"
  // With learned efficiency (learned_efficiency.h): the model's datasheet time before
  // its curve, and the curve that priced it ("H100-SXM / gemm roofline"; "none" when
  // the tables have no curve for it; "" without tables; "several" for a sum whose
  // sub-ops used different curves).
  double datasheetUs = 0;
  std::string curve;
  // The work the model priced, per call (the roofline's figures, roofline.h): FLOPs and
  // DRAM bytes (0 where the model counts none: copies move bytes only), and whether the
  // math runs on tensor cores (half types, TF32 kernels), which sets the peak it is held to.
  double flops = 0, bytes = 0;
  bool tensorCore = false;
  // Collectives: bytes are nccl-tests' bus bytes, and this the link bandwidth (GB/s, one
  // direction) the model moves them at: the roof a roofline holds them to. 0 otherwise.
  double linkGBs = 0;
};
// p with its work set.
inline OpPrediction withWork(OpPrediction p, double flops, double bytes, bool tensorCore = false) {
  p.flops = flops;
  p.bytes = bytes;
  p.tensorCore = tensorCore;
  return p;
}
// Whether math of type t runs on tensor cores on a GPU that has them (half types; F32
// only through TF32 kernels, said by the path).
inline bool onTensorCores(DType t, bool tf32) { return t == DType::F16 || t == DType::BF16 || tf32; }

class OpModels {
 public:
  // microbench: measured GEMMs and convolutions that replace their rooflines (either
  // may be absent; the pointer outlives the models).
  explicit OpModels(GpuSpec gpu, const Microbenchmarks* microbench = nullptr)
      : gpu_(std::move(gpu)), microbench_(microbench) {}
  const GpuSpec& gpu() const { return gpu_; }
  // The op's own model; nullopt when its name has none or its shapes do not fit it.
  // kernels: the GPU kernels it launched, names and grids (see mathPath: a GEMM of
  // floats that ran TF32 tensor-core kernels is priced at the TF32 peak; memoryBoundUs:
  // a memory-bound op whose grid covers few SMs reaches their share of the bandwidth;
  // conv_models.h: cuDNN's layout transposes).
  std::optional<OpPrediction> own(std::string_view name, const OpShapes& shapes,
                                  const std::vector<KernelLaunch>& kernels = {}) const {
    return scaled(datasheet(name, shapes, kernels));
  }
  // A copy between host and device memory (the op's GPU events are HtoD / DtoH
  // memcpys): the tensor's bytes over PCIe.
  std::optional<OpPrediction> hostCopy(const OpShapes& shapes) const;
  // Calibration's per-model shares (calibration.h): a prediction of a listed model
  // above the kernel floor is divided by its share, never below the floor.
  void setModelEfficiency(std::map<std::string, double> e) { efficiency_ = std::move(e); }
  // Learned achieved-efficiency curves (learned_efficiency.h), applied to every op a
  // model of its own prices (leaves: a sum of sub-ops adds its sub-ops' learned
  // times); nullptr: datasheet times. The tables outlive the models.
  void setLearnedEfficiency(const EfficiencyTables* tables) { learned_ = tables; }
  const EfficiencyTables* learnedEfficiency() const { return learned_; }
  // p priced by its curve for an op that launched gpuEvents GPU events; sets
  // datasheetUs and curve.
  // The GPU the trace's kernels ran on, when it is another than gpu (a what-if): their
  // grids are scaled by the SM counts' ratio (gridScale) and their architecture no
  // longer marks them as legacy tensor-core kernels.
  void setKernelsRanOn(const GpuSpec& g);
  double gridScale() const { return gridScale_; }
  // A what-if's op that recorded no input shapes: its GPU events' measured times scaled
  // to this GPU by the roof each is bound by (measured_scaling.h), as model
  // kScaledFromMeasured; nullopt outside a what-if (the trace's own GPU: nothing to scale).
  static constexpr const char* kScaledFromMeasured = "scaled from measured (no shapes)";
  std::optional<OpPrediction> scaledFromMeasured(const Trace& trace, const std::vector<EventRef>& gpuEvents) const;
  // op: the op's name, dtypeCurve its first input's dtype as curves name it
  // (curveDtypeKey; EfficiencyTables::find).
  OpPrediction learned(OpPrediction p, size_t gpuEvents, std::string_view op = {},
                       std::string_view dtypeCurve = {}) const;
  // An NCCL/RCCL collective (collective_models.h) over the spec's links.
  OpPrediction collective(const CollectiveMessage& c) const;
  // A convolution whose problem was completed from the trace (conv_pairing.h).
  std::optional<OpPrediction> convolution(const ConvProblem& p, const std::vector<KernelLaunch>& kernels) const;
  // An FBGEMM table-batched embedding call, completed from its pair (tbe_models.h).
  std::optional<OpPrediction> tbe(const TbeCall& call, const std::vector<KernelLaunch>& kernels) const;
  // GEMM shape of a GEMM op, for the pane's details.
  static std::optional<GemmShape> gemmShape(std::string_view name, const OpShapes& shapes);

 private:
  std::optional<OpPrediction> datasheet(std::string_view name, const OpShapes& shapes,
                                        const std::vector<KernelLaunch>& kernels) const;
  std::optional<OpPrediction> scaled(std::optional<OpPrediction> p) const;
  const ConvMicrobench* convTable() const;  // the measured convolutions, if any
  GpuSpec gpu_;
  const Microbenchmarks* microbench_;
  std::map<std::string, double> efficiency_;
  const EfficiencyTables* learned_ = nullptr;
  bool ranOnOther_ = false;
  std::optional<GpuSpec> ranOn_;  // the GPU the trace's kernels ran on, in a what-if
  double gridScale_ = 1.0;
  MathPath pathOf(DType t, const std::vector<KernelLaunch>& kernels) const;
};

// One row per outermost host op (see OpIndex) that caused GPU work.
struct OpRow {
  EventRef op;
  TimeNs measuredGpu = 0;  // summed durations of the GPU events it caused
  uint64_t gpuEvents = 0;
  std::optional<double> predictedUs;
  std::string model = "no model";
  std::string shapes;            // "Input Dims" text
  double datasheetUs = 0;        // with a prediction: before learned efficiency (OpPrediction)
  DType dtype = DType::Unknown;  // leaves: the op's first input's
  std::string dtypeCurve;        // leaves: the dtype as curves key it (curveDtypeKey)
  std::string curve;             // the learned curve that priced it, see OpPrediction::curve
  double flops = 0, bytes = 0;   // the model's work per call (OpPrediction)
  bool tensorCore = false;
  double linkGBs = 0;  // collectives: the link's bandwidth (OpPrediction)
};

// Ops starting inside window when given; in time order. extraShapes (packed op ->
// shapes, e.g. from a linked execution trace) stand in for ops whose Kineto args
// recorded none.
// leaves, when given, receives every op predicted by a model of its own, at any depth
// (the mm calls under a backward node), with its own measured GPU time: what
// calibration fits on.
// inputs: the trace's args, shapes and pairings read once for every pass of one
// prediction (op_inputs.h); nullptr: read for this call.
std::vector<OpRow> predictOps(const Trace& trace, const OpModels& models, std::optional<TimeWindow> window,
                              const std::map<uint64_t, OpShapes>* extraShapes = nullptr,
                              std::vector<OpRow>* leaves = nullptr, const OpInputs* inputs = nullptr);

}  // namespace opscope
