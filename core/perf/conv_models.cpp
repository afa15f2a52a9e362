#include "perf/conv_models.h"

#include "perf/conv_microbench.h"

#include <algorithm>
#include <cmath>

namespace opscope {

namespace {

// Where a forward convolution keeps stride, padding, dilation and the transposed flag
// among its inputs (-1: it has none).
struct ConvArgs {
  int stride, padding, dilation, transposed;
};
std::optional<ConvArgs> convArgs(std::string_view n) {
  if (n == "conv1d" || n == "conv2d" || n == "conv3d") return ConvArgs{3, 4, 5, -1};
  if (n == "convolution" || n == "_convolution") return ConvArgs{3, 4, 5, 6};
  if (n == "cudnn_convolution" || n == "miopen_convolution") return ConvArgs{3, 2, 4, -1};  // padding before stride
  return std::nullopt;
}

// A list argument of one value or one per spatial dim; nullopt otherwise.
std::optional<std::vector<int64_t>> perDim(const OpShapes& s, int index, size_t dims) {
  if (index < 0) return std::nullopt;
  auto v = s.concreteInts(static_cast<size_t>(index));
  if (!v || v->empty()) return std::nullopt;
  if (v->size() == 1) v->resize(dims, v->front());
  if (v->size() != dims) return std::nullopt;
  return v;
}

// ⌈n/32⌉; -1 (no grid has it) past int64, where a damaged file's dims would overflow the cast.
int64_t tiles32(double n) {
  const double t = std::ceil(n / 32);
  return t < 4e18 ? static_cast<int64_t>(t) : -1;
}

double layoutTransposesUs(const GpuSpec& g, const std::vector<KernelLaunch>& kernels,
                          std::initializer_list<const std::vector<int64_t>*> tensors, DType t) {
  double us = 0;
  for (const KernelLaunch& k : kernels) {
    if (!isLayoutTranspose(k.name)) continue;
    double bytes = 0;
    for (const std::vector<int64_t>* x : tensors)
      if (x && x->size() >= 3 && k.grid[2] == (*x)[0] && k.grid[1] == tiles32(static_cast<double>((*x)[1])) &&
          k.grid[0] == tiles32(elementCount(*x, 2))) {
        bytes = 2 * elementCount(*x) * dtypeBytes(t);
        break;
      }
    us += memoryBoundUs(g, bytes, k.blocks());
  }
  return us;
}

}  // namespace

bool isConvolutionName(std::string_view n) { return convArgs(n) || n == "convolution_backward"; }

std::optional<ConvProblem> convolutionProblem(std::string_view n, const OpShapes& s) {
  ConvProblem p;
  p.dtype = s.type(0);
  if (n == "convolution_backward") {
    // grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
    // output_padding, groups, output_mask
    const auto *dy = s.tensor(0), *x = s.tensor(1), *w = s.tensor(2);
    if (!dy || !x || !w || dy->size() < 3 || x->size() != dy->size() || w->size() != dy->size()) return std::nullopt;
    if (s.concreteBool(7).value_or(false)) return std::nullopt;
    p.backward = true;
    if (s.concrete.size() > 10 && !s.concrete[10].empty()) {  // "[True, True, False]"
      const std::string& m = s.concrete[10];
      const size_t first = m.find_first_of("TF"), comma = m.find(',');
      if (first == std::string::npos || comma == std::string::npos) return std::nullopt;
      p.inputGrad = m.compare(first, 4, "True") == 0;
      const size_t second = m.find_first_of("TF", comma);
      p.weightGrad = second != std::string::npos && m.compare(second, 4, "True") == 0;
    }
    p.x = *x, p.w = *w, p.y = *dy;
    const size_t dims = x->size() - 2;
    p.stride = perDim(s, 4, dims).value_or(std::vector<int64_t>{});
    p.dilation = perDim(s, 6, dims).value_or(std::vector<int64_t>{});
    return p;
  }
  const auto args = convArgs(n);
  if (!args) return std::nullopt;
  const auto *x = s.tensor(0), *w = s.tensor(1);
  if (!x || !w || x->size() < 3 || w->size() != x->size()) return std::nullopt;
  if (args->transposed >= 0 && s.concreteBool(static_cast<size_t>(args->transposed)).value_or(false))
    return std::nullopt;
  const size_t dims = x->size() - 2;
  const auto stride = perDim(s, args->stride, dims), pad = perDim(s, args->padding, dims),
             dil = perDim(s, args->dilation, dims);
  if (!stride || !pad || !dil) return std::nullopt;
  const std::vector<int64_t> in(x->begin() + 2, x->end()), kernel(w->begin() + 2, w->end());
  const auto out = convOutputSize(in, kernel, *stride, *pad, *dil);
  if (!out) return std::nullopt;
  p.x = *x, p.w = *w, p.stride = *stride, p.dilation = *dil;
  p.y = {(*x)[0], (*w)[0]};
  p.y.insert(p.y.end(), out->begin(), out->end());
  return p;
}

std::optional<OpPrediction> convolutionPrediction(const GpuSpec& g, std::string_view n, const OpShapes& s,
                                                  MathPath path, const std::vector<KernelLaunch>& kernels,
                                                  const ConvMicrobench* microbench) {
  const auto p = convolutionProblem(n, s);
  if (!p) return std::nullopt;
  return convolutionPrediction(g, *p, path, kernels, microbench);
}

std::optional<OpPrediction> convolutionPrediction(const GpuSpec& g, const ConvProblem& p, MathPath path,
                                                  const std::vector<KernelLaunch>& kernels,
                                                  const ConvMicrobench* microbench) {
  // A microbenchmark measured every kernel the call ran, layout transposes included.
  if (microbench)
    if (const auto us = microbench->predictUs(g, p, path))
      return withWork(OpPrediction{*us, "convolution microbenchmark"}, convolutionFlops(p), convolutionBytes(p),
                      onTensorCores(p.dtype, path.tf32));
  const double us = convolutionRooflineUs(g, p, path);
  if (us <= 0) return std::nullopt;
  const char* model = path.tf32 ? "convolution roofline (tf32)" : "convolution roofline";
  // First fit wins where two tensors share a grid: forward input, weight, output;
  // backward grad_output, input, weight.
  const double transposes = p.backward ? layoutTransposesUs(g, kernels, {&p.y, &p.x, &p.w}, p.dtype)
                                       : layoutTransposesUs(g, kernels, {&p.x, &p.w, &p.y}, p.dtype);
  return withWork(OpPrediction{us + transposes, model}, convolutionFlops(p), convolutionBytes(p),
                  onTensorCores(p.dtype, path.tf32));
}

std::optional<OpPrediction> normOrPoolPrediction(const GpuSpec& g, std::string_view n, const OpShapes& s,
                                                 int64_t gridBlocks) {
  auto result = [&](double bytes, const char* model) -> std::optional<OpPrediction> {
    if (bytes <= 0) return std::nullopt;
    return withWork(OpPrediction{memoryBoundUs(g, bytes, gridBlocks), model}, 0, bytes);
  };
  if (n == "batch_norm" || n == "_batch_norm_impl_index" || n == "cudnn_batch_norm" || n == "native_batch_norm" ||
      n == "miopen_batch_norm" || n == "_native_batch_norm_legit") {
    // input, weight, bias, running_mean, running_var, training, ... (native_batch_norm
    // the same; _native_batch_norm_legit has training at 5 as well)
    const bool training = s.concreteBool(5).value_or(true);
    return result(s.bytes(0) * (training ? 3 : 2), "memory-bound (batch norm)");
  }
  if (n == "cudnn_batch_norm_backward" || n == "native_batch_norm_backward" || n == "miopen_batch_norm_backward")
    return result(s.bytes(0) * 5, "memory-bound (batch norm)");
  const bool maxPool = n == "max_pool1d_with_indices" || n == "max_pool2d" || n == "max_pool2d_with_indices" ||
                       n == "max_pool3d" || n == "max_pool3d_with_indices";
  if (maxPool || n == "avg_pool2d" || n == "avg_pool3d") {
    // input, kernel_size, stride (empty: the kernel), padding, then dilation and
    // ceil_mode (max) or ceil_mode (avg)
    const auto* x = s.tensor(0);
    if (!x || x->size() < 3) return std::nullopt;
    const size_t dims = x->size() - 2;
    const auto kernel = perDim(s, 1, dims);
    auto stride = perDim(s, 2, dims);
    if (!stride && kernel && s.concrete.size() > 2 && s.concrete[2] == "[]") stride = kernel;
    const auto pad = perDim(s, 3, dims);
    const auto dil = maxPool ? perDim(s, 4, dims) : std::optional<std::vector<int64_t>>(std::vector<int64_t>(dims, 1));
    const bool ceilMode = s.concreteBool(maxPool ? 5 : 4).value_or(false);
    if (!kernel || !stride || !pad || !dil) return std::nullopt;
    const std::vector<int64_t> in(x->begin() + 2, x->end());
    const auto out = convOutputSize(in, *kernel, *stride, *pad, *dil, ceilMode);
    if (!out) return std::nullopt;
    const double outElems = static_cast<double>((*x)[0]) * static_cast<double>((*x)[1]) * elementCount(*out);
    const bool indices = n.ends_with("with_indices");
    return result(s.bytes(0) + outElems * (dtypeBytes(s.type(0)) + (indices ? 8 : 0)), "memory-bound (pooling)");
  }
  if (n == "adaptive_avg_pool2d" || n == "_adaptive_avg_pool2d" || n == "adaptive_avg_pool3d" ||
      n == "_adaptive_avg_pool3d") {
    const auto* x = s.tensor(0);
    if (!x || x->size() < 3) return std::nullopt;
    const auto out = perDim(s, 1, x->size() - 2);
    if (!out) return std::nullopt;
    const double outElems = static_cast<double>((*x)[0]) * static_cast<double>((*x)[1]) * elementCount(*out);
    return result(s.bytes(0) + outElems * dtypeBytes(s.type(0)), "memory-bound (pooling)");
  }
  if (n == "max_pool2d_with_indices_backward" || n == "max_pool3d_with_indices_backward")
    return result(s.bytes(0) + s.bytes(1) + s.bytes(7), "memory-bound (pooling)");  // dy, indices read; dx written
  if (n == "_adaptive_avg_pool2d_backward" || n == "_adaptive_avg_pool3d_backward" || n == "avg_pool2d_backward" ||
      n == "avg_pool3d_backward")
    return result(s.bytes(0) + s.bytes(1), "memory-bound (pooling)");  // dy read, dx (the input's size) written
  return std::nullopt;
}

}  // namespace opscope
