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
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perf/gpu_spec.h"

namespace opscope {

// FBGEMM table-batched embedding: B batch, E rows per table, T tables, L pooling
// factor (bag size; the mean over bags when priced from a trace, where it is indices
// over B·T and often below 1), D embedding dimension.
struct EmbeddingShape {
  int64_t batch = 0, rows = 0, tables = 0;
  double bag = 0;
  int64_t dim = 0;
  int64_t rowsPerBlock = 32;  // forward only: warps per block (block.y of the kernel)
  bool shmem = true;          // the kernel variant staging indices in shared memory
};
// Forward with the notebook's L2 hit-rate model: DRAM and L2 traffic, the slower bound.
double embeddingForwardUs(const GpuSpec& g, const EmbeddingShape& s);
double embeddingBackwardSgdUs(const GpuSpec& g, const EmbeddingShape& s);
double embeddingBackwardRowwiseAdagradUs(const GpuSpec& g, const EmbeddingShape& s);

// How an op's math ran, as its kernels' names tell: what the compute models price it at.
struct MathPath {
  // F32 operands multiplied in TF32 on tensor cores (Ampere and later with TF32
  // allowed: the kernel's name says so, see usesTf32TensorCores): priced at the TF32
  // peak, 8x A100's FP32 one.
  bool tf32 = false;
  // Tensor-core kernels built for an architecture before the GPU's Hopper or later one
  // (sm80_xmma_…, cutlass_80_tensorop_… on an H100): they issue mma.sync, which reaches
  // about half of Hopper's tensor peak (the full rate needs wgmma, which sm80 code cannot
  // issue; legacy MMA on H100 measures ~50 % of peak). Priced at kLegacyTensorCoreShare
  // of the tensor peak; SIMT (plain FP32, FP64) peaks are unaffected.
  bool legacyTensorCores = false;
  // Blocks of the op's widest math kernel (0: not recorded): a grid of fewer blocks than
  // the GPU has SMs leaves the others idle, so the roofline's compute and memory rates
  // are both scaled by blocks / SMs (a cuDNN dgrad of 100 blocks on 132 SMs reaches 76 %
  // of the peak at most). Grids of the SM count or more: no change (tail waves are not
  // modelled).
  int64_t grid = 0;
};
inline constexpr double kLegacyTensorCoreShare = 0.5;

// A GPU kernel an op launched, as the models see it: its name (the math library's
// choice: TF32 tensor cores, the architecture it was built for, cuDNN's layout
// transposes) and its grid in blocks (how many SMs a memory-bound kernel keeps busy).
// Both are launch facts, known before the kernel ran: no measured time goes in.
struct KernelLaunch {
  std::string_view name;
  std::array<int64_t, 3> grid{};   // all 0: not recorded (ROCm traces, old Kineto)
  std::array<int64_t, 3> block{};  // threads, likewise
  KernelLaunch(std::string_view n, std::array<int64_t, 3> g = {}, std::array<int64_t, 3> b = {})
      : name(n), grid(g), block(b) {}
  KernelLaunch(const char* n) : name(n) {}
  // x·y·z, 0 when not recorded.
  int64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
};
// The math path of an op of element type t whose kernels are these, on g: tf32 when t
// is F32, g has TF32 and a kernel says so; legacyTensorCores when g is sm90 or later and
// every kernel that names an architecture names an older one (at least one does); grid
// the widest of its kernels other than cuDNN's layout transposes.
MathPath mathPath(const GpuSpec& g, DType t, const std::vector<KernelLaunch>& kernels);
// The most blocks any of the kernels launched; 0 when none recorded a grid.
int64_t widestGrid(const std::vector<KernelLaunch>& kernels);

struct GemmShape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  DType dtype = DType::F32;
  bool tf32 = false, legacyTensorCores = false;  // see MathPath
  int64_t grid = 0;
  MathPath path() const { return {tf32, legacyTensorCores, grid}; }
};
// cuDNN's channels-first <-> channels-last transposes (nchwToNhwcKernel, nhwcToNchwKernel).
bool isLayoutTranspose(std::string_view kernelName);
// A kernel name of a TF32 tensor-core GEMM or convolution: "tf32" (cuBLAS/cuDNN xmma),
// CUTLASS' "tensorop_s1688" / "tensorop_s16816" (single precision through TF32 MMA).
bool usesTf32TensorCores(std::string_view kernelName);
double gemmFlops(const GemmShape& s);  // 2·B·M·N·K
double gemmBytes(const GemmShape& s);  // A, B and C once each
// Roofline: the slower of flops at the dtype's peak (TF32's for F32 operands when
// path.tf32 and the GPU has TF32; a share of a tensor peak for legacy tensor-core code)
// and bytes at DRAM bandwidth, both at the share of SMs path.grid covers, at least the
// kernel floor. Every compute model (GEMM, convolution, attention) prices through it.
double rooflineUs(const GpuSpec& g, double flops, double bytes, DType t, MathPath path = {});
double gemmRooflineUs(const GpuSpec& g, const GemmShape& s);

// Bytes moved at DRAM bandwidth, at least the kernel floor. gridBlocks, when recorded
// (> 0), caps the bandwidth at the share of SMs the grid covers: cuDNN's channels-first
// batch norm launches one block per channel, so a 64-channel layer keeps 64 of an
// H100's 132 SMs busy and moves its bytes at about half the DRAM bandwidth (measured on
// an H100: 1.25 TB/s with 64 blocks, 2.5 TB/s with 256 or more). Blocks past the SM
// count change nothing: one SM's share of the bandwidth is what the grid can reach.
double memoryBoundUs(const GpuSpec& g, double bytes, int64_t gridBlocks = 0);

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
