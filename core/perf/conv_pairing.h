#pragma once
// Convolutions of traces that record shapes but no "Concrete Inputs" (PyTorch < 2.0:
// the TensorBoard plugin's ResNet-50, any trace of 2021-2022), completed from the trace.
//
// Such a forward op (conv2d, _convolution, cudnn_convolution, …) records its input and
// weight but not its stride or padding, so its output size is unknown and no roofline
// can be priced. Its backward knows it: the convolution backward op (convolution_backward,
// or PyTorch <= 1.10's cudnn_/miopen_convolution_backward) records grad_output, the
// output's shape. Autograd gives the forward op and its backward node one "Sequence
// number" (per forward thread; the same process); the backward op is the node's
// descendant. A forward op takes its output from the backward whose sequence number it
// shares when the input, the weight and the output's batch and channels all agree (a
// transposed convolution's grad_output has other channels: never paired).
//
// PyTorch <= 1.10's cudnn_/miopen_convolution_backward ([input, grad_output, weight,
// padding, stride, …]) computes the gradients its children name — *_backward_input and
// *_backward_weight; the first layer asks for no input gradient — or both when it has
// neither child recorded.
//
// Stride: inferred from the sizes (inferConvStride) where the trace gives none, so a
// convolution microbenchmark can match its rows; the roofline does not need it.
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "model/trace.h"
#include "perf/conv_problem.h"
#include "perf/op_models.h"

namespace opscope {

// Packed EventRef of a convolution op -> its problem, for the ops whose own shapes do not
// give one complete with a stride (the rest are priced from their shapes).
class OpInputs;
std::unordered_map<uint64_t, ConvProblem> convProblemsOf(const OpInputs& inputs);
// Whether an op (its name without "aten::") is a convolution whose own shapes give no
// problem complete with a stride: only then is convProblemsOf worth its walk (a trace
// with Concrete Inputs never needs it).
bool needsConvPairing(std::string_view baseName, const OpShapes& s);

}  // namespace opscope
