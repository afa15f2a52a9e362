#pragma once
// Two runs side by side: host work (ops, record_function annotations other than
// ProfilerStep#N, runtime and driver calls) matched by name and recorded input shapes,
// GPU work (kernels, memcpys, memsets) by name, each row with its count and total time on either
// side. A row present on one side only has count 0 and total 0 on the other. A trace
// diffed with itself gives every delta 0.
//
// What the exact names leave unmatched is matched again, so two builds or two vendors
// compare: kernels by base name (the template arguments and the parameter list cut: an
// NCCL kernel whose signature changed between versions is one row, not an "only in A"
// and an "only in B"), runtime and driver calls across vendors (cudaLaunchKernel <->
// hipLaunchKernel / hipExtModuleLaunchKernel, cudaMemcpyAsync <-> hipMemcpyAsync, ...).
// Exact matches come first, so two template instantiations present on both sides stay
// two rows.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct DiffRow {
  std::string name;
  std::string shape;  // ops: the "Input Dims" arg as recorded ("" when not recorded)
  size_t countA = 0, countB = 0;
  TimeNs totalA = 0, totalB = 0;  // scaled per iteration when DiffOptions::perIteration
  // How the two sides were matched: kName (the same name, or one side only), kBaseName,
  // kRuntimeCall. For the last two, name is the base name ("ncclKernel_..._int8_t") or
  // "cudaLaunchKernel / hipLaunchKernel", and namesA / namesB list each side's own names.
  enum class Match : uint8_t { kName, kBaseName, kRuntimeCall };
  Match match = Match::kName;
  std::vector<std::string> namesA, namesB;
  TimeNs delta() const { return totalB - totalA; }
};

struct DiffOptions {
  // The part of each trace compared (an iteration range); unset: the whole trace. An op
  // counts when it starts inside; a GPU event when its launch does, so work the GPU
  // finishes after the range still counts. GPU work with no launch in the trace (launched
  // before profiling began) belongs to no iteration: in a range it is left out of the rows
  // and counted in TraceDiff::withoutLaunch (it went into iteration 0: 614 events, 56.5 ms
  // on HTA's trace_diff pair); over the whole trace it is in the rows and counted there too.
  std::optional<TimeWindow> windowA, windowB;
  // Totals divided by each side's number of iterations in its range, so runs profiled
  // for different numbers of steps compare (counts stay as measured).
  bool perIteration = false;
};

struct TraceDiff {
  std::vector<DiffRow> ops;                            // by |delta| descending, then name, then shape
  std::vector<DiffRow> kernels;                        // the same order
  std::vector<TimeNs> iterationWallA, iterationWallB;  // iterations starting in the range: start to GPU drain
  struct Unlaunched {
    size_t count = 0;
    TimeNs total = 0;  // as measured, never per iteration
  };
  Unlaunched withoutLaunchA, withoutLaunchB;  // GPU work with no launch in each trace
};

// A kernel's name without its template arguments, its parameter list and a leading
// "void ": "void at::native::elementwise_kernel<128, 2, F>(int, F)" ->
// "at::native::elementwise_kernel". Names without either come back as they are.
std::string kernelBaseName(std::string_view name);
// A CUDA or HIP runtime / driver call's name without its vendor prefix ("cuda", "cu",
// "hip", and "ExtModule" / "Module" before LaunchKernel): "cudaMemcpyAsync" and
// "hipMemcpyAsync" -> "MemcpyAsync"; empty for other names.
std::string vendorNeutralCallName(std::string_view name);
const char* matchName(DiffRow::Match m);                         // "name", "base name", "runtime call"
std::string joinedNames(const std::vector<std::string>& names);  // "a, b, c"

// Op time is inclusive (an op's own duration); an op nested in an op of the same name
// (aten::to inside aten::to) is not counted twice.
TraceDiff diffTraces(const Trace& a, const Trace& b, const DiffOptions& options = {});

}  // namespace opscope
