#pragma once
// Achieved efficiency learned from measured kernels: how far real kernels stay from the
// datasheet roofline each model prices, as a function of the problem's size, per GPU
// and model family, fitted by tools/fit_efficiency.py on public traces of other runs
// (resources/gpu/efficiency.json, compiled in; `predict --efficiency FILE` takes
// another, e.g. one fitted without the trace being checked).
//
// A leaf op's datasheet prediction d (µs, the model's roofline or bandwidth time,
// floored at the kernel floor) over its n GPU events becomes
//     d × ratio(log10(d / n))
// where ratio is the curve's measured / datasheet, piecewise linear in log10 of the
// datasheet time per GPU event between the fitted knots and flat beyond them: small
// kernels are launch- and tail-bound (a 2 µs datasheet GEMM measures 6), large ones
// reach a steady share of the peak. Only launch facts (the number of GPU events an op
// launched, known before they ran) and the datasheet time go in, never a measured time.
//
// Curves are looked up by the GPU preset's name, else the vendor's pooled curve
// ("nvidia", "amd": from the architecture, sm… or gfx…), else "any"; within a GPU by the
// op and its dtype, the op (see find), the model's name ("gemm roofline (tf32)"), else its family (the name up to " ("
// or the first word: "gemm", "memory-bound", "convolution", "attention"), the first that covers the op's size
// (EfficiencyCurve::covers). A model with no curve keeps its datasheet time and says so.
//
// Invariants: every ratio is finite and in [kMinRatio, kMaxRatio]; knots are sorted by
// x with distinct x; a table that breaks them is refused with one line naming the field.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"
#include "perf/gpu_spec.h"

namespace opscope {

inline constexpr double kMinRatio = 0.05, kMaxRatio = 200;
inline constexpr double kCurveReach = 0.5;  // decades
// The curve of ops whose datasheet time is the preset's kernel floor, whatever their
// model: the GPU's shortest kernels as measured (MI300X's preset floor is 4 µs, its
// elementwise kernels on small tensors take 1.5-2.5).
inline constexpr const char* kFloorModel = "kernel floor";

struct EfficiencyCurve {
  struct Knot {
    double log10Us = 0;  // datasheet µs per GPU event, log10
    double ratio = 1;    // measured / datasheet there
  };
  std::vector<Knot> knots;
  uint64_t samples = 0;  // leaf ops it was fitted on
  double ratioAt(double datasheetUsPerEvent) const;
  // Whether x = datasheetUsPerEvent lies within the fitted range, widened by
  // kCurveReach decades on either side: beyond it the curve is not extrapolated, a more
  // general one (or the datasheet) prices the op (a curve fitted on small convolutions
  // of one GPU must not set the price of another's large ones).
  bool covers(double datasheetUsPerEvent) const;
};

// A trace a table was fitted on, as the fitting script names it.
struct FittedTrace {
  std::string file, gpu, fingerprint;
};

struct EfficiencyTables {
  std::string source;  // "built-in (resources/gpu/efficiency.json)" or the file given
  std::string description;
  // GPU key ("H100-SXM", "nvidia", "amd", "any") -> model or family -> curve.
  std::map<std::string, std::map<std::string, EfficiencyCurve, std::less<>>, std::less<>> curves;
  std::vector<FittedTrace> fittedOn;

  // The most specific curve for gpu and model that covers datasheetUsPerEvent, and the
  // name it was found under ("H100-SXM / gemm roofline", "amd / memory-bound"); nullptr
  // when none does.
  // op and dtype (the op's name without "aten::"-style namespace kept as recorded, its
  // first input's dtype: dtypeKey) pick a curve of that op first: "memory-bound|
  // aten::softmax|f32", then "memory-bound|aten::softmax" (a softmax is three passes
  // with exponentials, not one of bytes; PyTorch's native bf16 batch norm runs at a
  // fifth of cuDNN's FP32 one).
  const EfficiencyCurve* find(const GpuSpec& gpu, std::string_view model, double datasheetUsPerEvent,
                              std::string* which = nullptr, std::string_view op = {},
                              std::string_view dtype = {}) const;
  // Whether a trace of that fingerprint is among fittedOn.
  bool fittedOnTrace(std::string_view fingerprint) const;
};

// Whether a model's ops take a learned curve. Not a collective's: its measured time is
// mostly the wait for the slowest peer, which no other trace's ranks tell (a what-if
// of that would carry one job's skew to another); not a microbenchmark's, which is a
// measured time already. tools/fit_efficiency.py leaves the same ones out.
bool learnsEfficiency(std::string_view model);

// "nvidia" for sm… architectures, "amd" for gfx…, "" otherwise.
std::string gpuVendor(const GpuSpec& gpu);
// "f32", "bf16", "f16", "f64", "i64", ... ; "" for Unknown.
const char* dtypeKey(DType t);
// The dtype part of a curve's key: dtypeKey, with " unaligned" after it for a GEMM whose
// innermost dims are not whole 16-byte vectors (OpShapes::innerDimUnaligned): fitted
// apart, since cuBLAS runs those at a fraction of the aligned kernels' rate ("" for
// Unknown).
std::string curveDtypeKey(DType t, bool unaligned);
// The family a model name belongs to ("gemm roofline (tf32)" -> "gemm").
std::string modelFamily(std::string_view model);

// Parses the fitting script's JSON; nullopt and one line on error.
std::optional<EfficiencyTables> parseEfficiencyTables(std::string_view text, std::string& error);
// The tables compiled in; never null (an empty table when the resource has no curves).
const EfficiencyTables* builtinEfficiencyTables();

// What identifies a trace among the fitted ones without reading its file again: the
// number of GPU kernels and their summed duration in ns ("kernels=1234 kernel_ns=5678").
std::string traceFingerprint(const Trace& trace);

}  // namespace opscope
