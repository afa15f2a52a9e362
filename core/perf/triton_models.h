#pragma once
// Kernels torch.compile generated with Triton, priced from the launch record PyTorch's
// Inductor writes around each of them (its test/inductor/test_profiler.py): a cpu_op
// named after the kernel, "triton_poi_fused_add_cos_sin_0", whose Input Dims are the
// kernel's arguments — each tensor argument's dims, [] for the scalars (xnumel,
// rnumel): [[4, 4], [4, 4], [4, 4], []] for in_ptr0, in_ptr1, out_ptr0, xnumel.
// Traces of older Inductor (2023; the public recsys trace) record no such op: their
// kernels are launched by the compiled graph itself and stay unpriced.
//
// Pointwise (poi), reduction (red), persistent-reduction (per) and foreach (for)
// kernels stream each tensor argument through DRAM once: "memory-bound (triton)" on
// the sum of their bytes, at the share of the bandwidth the kernel's grid reaches. An
// in_out_ptr argument (read and written) counts once, a broadcast one its own size (its
// re-reads hit the cache).
//
// Templates (tem) are GEMMs with a fused epilogue: "triton_tem_fused_mm_0" [[M, K],
// [K, N], [M, N]], addmm and bmm alike. The first two consecutive 2-D (bmm: 3-D)
// arguments whose inner dims meet are A and B, priced on the GEMM roofline ("gemm
// roofline (triton)"); other templates (convolutions, attention) or arguments that do
// not fit: no model.
#include <optional>
#include <string_view>

#include "perf/kernel_models.h"
#include "perf/op_models.h"

namespace opscope {

bool isTritonKernelName(std::string_view name);
// path: the math path the op's kernels reveal (mathPath); gridBlocks: their widest grid.
std::optional<OpPrediction> tritonPrediction(const GpuSpec& g, std::string_view name, const OpShapes& s, MathPath path,
                                             int64_t gridBlocks);

}  // namespace opscope
