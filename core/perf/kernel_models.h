#pragma once
// Kernel time predictors (µs) on a GpuSpec, after the DLRM performance-model notebook
// (Lin et al., HiPC 2022). Where this differs from the notebook:
//  - GEMM FLOPs are 2·B·M·N·K (the notebook divides B·M·N·K multiply-adds by a FLOP/s
//    peak, predicting half the time a roofline gives).
//  - The SGD backward's compute bound takes the spec's FP32 peak as a parameter (the
//    notebook reads a global); the backward models drop num_embeddings and
//    rows_per_block, which they never used.
//  - The notebook's L2 size is 6 MiB × 4; the spec's L2 is used as is (the example
//    below is in the regime where the hit rate is 0, so both give 4340.8 µs).
//  - Microbenchmark interpolation: see GemmMicrobench.
// Every model is bounded below by the spec's kernel floor (a kernel never takes less
// than its launch-to-completion minimum), except the embedding ones, kept as published.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perf/gpu_spec.h"

namespace opscope {

// FBGEMM table-batched embedding: B batch, E rows per table, T tables, L pooling
// factor (bag size), D embedding dimension.
struct EmbeddingShape {
  int64_t batch = 0, rows = 0, tables = 0, bag = 0, dim = 0;
  int64_t rowsPerBlock = 32;  // forward only: warps per block (block.y of the kernel)
  bool shmem = true;          // the kernel variant staging indices in shared memory
};
// Forward with the notebook's L2 hit-rate model: DRAM and L2 traffic, the slower bound.
double embeddingForwardUs(const GpuSpec& g, const EmbeddingShape& s);
double embeddingBackwardSgdUs(const GpuSpec& g, const EmbeddingShape& s);
double embeddingBackwardRowwiseAdagradUs(const GpuSpec& g, const EmbeddingShape& s);

struct GemmShape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  DType dtype = DType::F32;
  // F32 operands multiplied in TF32 on tensor cores (Ampere and later with TF32
  // allowed: the kernel's name says so, see usesTf32TensorCores): priced at the TF32
  // peak, 8x A100's FP32 one.
  bool tf32 = false;
};
// A kernel name of a TF32 tensor-core GEMM or convolution: "tf32" (cuBLAS/cuDNN xmma),
// CUTLASS' "tensorop_s1688" / "tensorop_s16816" (single precision through TF32 MMA).
bool usesTf32TensorCores(std::string_view kernelName);
double gemmFlops(const GemmShape& s);  // 2·B·M·N·K
double gemmBytes(const GemmShape& s);  // A, B and C once each
// Roofline: the slower of flops at the dtype's peak (TF32's for F32 operands when tf32
// and the GPU has TF32) and bytes at DRAM bandwidth, at least the kernel floor. Every
// compute model (GEMM, convolution, attention) prices through it.
double rooflineUs(const GpuSpec& g, double flops, double bytes, DType t, bool tf32 = false);
double gemmRooflineUs(const GpuSpec& g, const GemmShape& s);

// Bytes moved at DRAM bandwidth, at least the kernel floor.
double memoryBoundUs(const GpuSpec& g, double bytes);

// Measured GEMM times (the notebook's CSV: batch_size, M, N, K, kernel_runtime in µs,
// other columns ignored). A shape measured exactly gets its time (the mean when
// measured more than once). Otherwise the achieved fraction of the roofline of the
// nearest measured shapes (distance in log2 of batch, M, N, K; up to 4 points,
// weighted by inverse distance) scales this shape's roofline: interpolation between
// neighbours, which, unlike the notebook's per-dimension bracketing, needs no full grid
// of measurements and never divides by a missing corner.
class GemmMicrobench {
 public:
  // One line errors name the line and column.
  static std::optional<GemmMicrobench> fromCsv(std::string_view text, std::string& error);
  size_t size() const { return points_.size(); }
  double predictUs(const GpuSpec& g, const GemmShape& s) const;

 private:
  struct Point {
    int64_t batch, m, n, k;
    double us;
  };
  std::vector<Point> points_;
};

}  // namespace opscope
