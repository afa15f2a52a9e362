#include "perf/conv_problem.h"

#include <algorithm>
#include <cmath>

namespace opscope {

double elementCount(const std::vector<int64_t>& v, size_t from) {
  double p = 1;
  for (size_t i = from; i < v.size(); ++i) p *= static_cast<double>(std::max<int64_t>(0, v[i]));
  return p;
}

std::optional<std::vector<int64_t>> convOutputSize(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                                                   const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                                                   const std::vector<int64_t>& dil, bool ceilMode) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (stride[i] <= 0 || dil[i] <= 0 || kernel[i] <= 0 || pad[i] < 0) return std::nullopt;
    const double span = static_cast<double>(in[i]) + 2.0 * static_cast<double>(pad[i]) -
                        static_cast<double>(dil[i]) * static_cast<double>(kernel[i] - 1) - 1;
    if (span < 0) return std::nullopt;
    const double q = span / static_cast<double>(stride[i]);
    if (q > 4e18) return std::nullopt;  // no tensor has that many rows; and int64 would overflow
    out.push_back(static_cast<int64_t>(ceilMode ? std::ceil(q) : std::floor(q)) + 1);
  }
  return out;
}

std::optional<std::vector<int64_t>> inferConvStride(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                                                    const std::vector<int64_t>& out) {
  constexpr int64_t kMaxStride = 8;
  if (in.empty() || in.size() != kernel.size() || in.size() != out.size()) return std::nullopt;
  std::vector<int64_t> stride;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] <= 0 || kernel[i] <= 0 || out[i] <= 0) return std::nullopt;
    int64_t found = 0;
    for (const int64_t pad : {(kernel[i] - 1) / 2, int64_t{0}}) {
      for (int64_t s = 1; s <= kMaxStride && !found; ++s) {
        const auto o = convOutputSize({in[i]}, {kernel[i]}, {s}, {pad}, {1});
        if (o && (*o)[0] == out[i]) found = s;
      }
      if (found) break;
    }
    if (!found) return std::nullopt;
    stride.push_back(found);
  }
  return stride;
}

std::optional<ConvProblem> convolutionProblem2d(int64_t n, int64_t c, int64_t k, int64_t h, int64_t w, int64_t r,
                                                int64_t s, int64_t stride, int64_t padding, DType t) {
  const auto out = convOutputSize({h, w}, {r, s}, {stride, stride}, {padding, padding}, {1, 1});
  if (!out) return std::nullopt;
  ConvProblem p;
  p.dtype = t;
  p.x = {n, c, h, w};
  p.w = {k, c, r, s};
  p.y = {n, k, (*out)[0], (*out)[1]};
  p.stride = {stride, stride};
  p.dilation = {1, 1};
  return p;
}

namespace {
double passes(const ConvProblem& p) { return p.backward ? (p.inputGrad ? 1 : 0) + (p.weightGrad ? 1 : 0) : 1; }
}  // namespace

double convolutionFlops(const ConvProblem& p) { return passes(p) * 2 * elementCount(p.y) * elementCount(p.w, 1); }

double convolutionBytes(const ConvProblem& p) {
  return passes(p) * (elementCount(p.x) + elementCount(p.w) + elementCount(p.y)) * dtypeBytes(p.dtype);
}

double convolutionRooflineUs(const GpuSpec& g, const ConvProblem& p, MathPath path) {
  const double flops = 2 * elementCount(p.y) * elementCount(p.w, 1);  // N·K·∏out · (C/groups)·∏kernel
  const double size = dtypeBytes(p.dtype);
  const double bytes = (elementCount(p.x) + elementCount(p.w) + elementCount(p.y)) * size;
  if (!p.backward) return rooflineUs(g, flops, bytes, p.dtype, path);
  // Each gradient reads the two other tensors and writes its own: the same bytes.
  return (p.inputGrad ? rooflineUs(g, flops, bytes, p.dtype, path) : 0) +
         (p.weightGrad ? rooflineUs(g, flops, bytes, p.dtype, path) : 0);
}

}  // namespace opscope
