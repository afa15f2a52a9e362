#pragma once
// A convolution as tensors (what conv_models.h reads off a trace's shapes and
// conv_microbench.h off its rows) and its implicit-GEMM roofline.
#include <cstdint>
#include <optional>
#include <vector>

#include "perf/kernel_models.h"

namespace opscope {

// A convolution's tensors, from its recorded shapes. Backward: y is grad_output and
// the gradients asked for are flagged. stride and dilation per spatial dim, empty when
// the trace did not record them (a backward without Concrete Inputs).
struct ConvProblem {
  bool backward = false, inputGrad = true, weightGrad = true;
  std::vector<int64_t> x, w, y;  // input (N, C, …), weight (K, C/groups, …), output (N, K, …)
  std::vector<int64_t> stride, dilation;
  DType dtype = DType::Unknown;
};
// A forward 2-D convolution of N×C×H×W by K×C×R×S (a microbenchmark's row); nullopt
// when its output would be empty.
std::optional<ConvProblem> convolutionProblem2d(int64_t n, int64_t c, int64_t k, int64_t h, int64_t w, int64_t r,
                                                int64_t s, int64_t stride, int64_t padding, DType t);
// The implicit-GEMM roofline of the problem (each gradient asked for is one such pass),
// without the layout transposes.
double convolutionRooflineUs(const GpuSpec& g, const ConvProblem& p, MathPath path);
// Its work: FLOPs (2·N·K·∏out·(C/groups)·∏kernel per pass; both gradients of a backward
// count) and the bytes of x, w and y per pass.
double convolutionFlops(const ConvProblem& p);
double convolutionBytes(const ConvProblem& p);

// floor((in + 2·pad − dil·(k − 1) − 1) / stride) + 1 per dim (ceil with ceilMode);
// nullopt when a dim would be empty, a parameter is out of range or it would overflow.
std::optional<std::vector<int64_t>> convOutputSize(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                                                   const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                                                   const std::vector<int64_t>& dil, bool ceilMode = false);
// The stride per spatial dim with which a kernel over in gives out, dilation 1: the
// smallest of 1..8 that fits with the usual padding (k − 1) / 2, else with none (an
// out equal to in is stride 1 however many fit). nullopt when no stride fits a dim or
// the sizes do not match up.
std::optional<std::vector<int64_t>> inferConvStride(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                                                    const std::vector<int64_t>& out);
// The product of v[from..] as a double (negative dims count as 0).
double elementCount(const std::vector<int64_t>& v, size_t from = 0);

}  // namespace opscope
