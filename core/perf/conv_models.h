#pragma once
// Convolutions, batch norm and pooling from their recorded shapes, for vision models
// (86 % of a ResNet's GPU time).
//
// Convolutions are implicit GEMMs: 2·N·K·∏out·(C/groups)·∏kernel FLOPs at the dtype's
// peak (float convolutions whose kernels are TF32 tensor-core ones, cuDNN's default on
// Ampere and later, at the TF32 peak), or their tensors' bytes over DRAM, whichever is
// slower, at least the kernel floor. The weight's second dim is C/groups, so groups
// never need reading. Forward output sizes come from stride, padding and dilation in
// PyTorch ≥ 2's "Concrete Inputs" (without them, or with padding="same", from the op's
// backward: conv_pairing.h);
// convolution_backward reads them off its grad_output and prices the data and weight
// gradients its output mask asks for. Transposed convolutions: no model.
//
// NHWC kernels on NCHW tensors: cuDNN runs its channels-last kernels on channels-first
// float tensors by transposing around them (nchwToNhwcKernel on the inputs and weight,
// nhwcToNchwKernel on the output or gradients; 4.3 ms of a ResNet-50 iteration's 36.4 ms
// on an H100). Each transpose reads and writes one tensor at DRAM bandwidth. Its grid
// tiles the NCHW tensor 32 × 32 over (∏spatial, C) with N on z, which names the tensor:
// the one of the op's (input, weight, output; backward: grad_output, input, weight,
// whose gradients have their shapes) with z = N, y = ⌈C/32⌉, x = ⌈∏spatial/32⌉. A
// transpose no tensor fits, or one without a recorded grid, costs the kernel floor.
//
// With a convolution microbenchmark (conv_microbench.h) that measured the op's pass,
// kernel, stride and dtype, the op is priced from the nearest measured shapes instead
// ("convolution microbenchmark"): their measured times held every kernel the call
// ran, transposes included.
//
// Batch norm and pooling are memory-bound (at the share of the DRAM bandwidth their
// kernels' grid reaches, see memoryBoundUs): batch norm in training reads its input
// twice (statistics, then normalisation) and writes it once (3×; 2× in evaluation),
// its backward reads input and grad_output twice and writes grad_input (5×); pooling
// reads its input and writes its output (and the int64 indices of max pooling); their
// backward reads grad_output (and indices) and writes a grad_input of the input's size.
#include <optional>
#include <string_view>
#include <vector>

#include "perf/conv_problem.h"
#include "perf/op_models.h"

namespace opscope {

class ConvMicrobench;

std::optional<ConvProblem> convolutionProblem(std::string_view baseName, const OpShapes& s);

// baseName: the op's name without "aten::". path: what its kernels say about its math
// (mathPath); kernels: what it launched (for the layout transposes).
std::optional<OpPrediction> convolutionPrediction(const GpuSpec& g, std::string_view baseName, const OpShapes& s,
                                                  MathPath path, const std::vector<KernelLaunch>& kernels = {},
                                                  const ConvMicrobench* microbench = nullptr);
// A problem known otherwise (conv_pairing.h: completed from its backward).
std::optional<OpPrediction> convolutionPrediction(const GpuSpec& g, const ConvProblem& p, MathPath path,
                                                  const std::vector<KernelLaunch>& kernels = {},
                                                  const ConvMicrobench* microbench = nullptr);
// gridBlocks: the widest grid the op's kernels launched (0: not recorded).
std::optional<OpPrediction> normOrPoolPrediction(const GpuSpec& g, std::string_view baseName, const OpShapes& s,
                                                 int64_t gridBlocks = 0);
// Whether convolutionPrediction knows the name (to look at the op's kernels only then).
bool isConvolutionName(std::string_view baseName);

}  // namespace opscope
