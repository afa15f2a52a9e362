#include "perf/triton_models.h"

namespace opscope {

namespace {

enum class TritonKind { None, Streaming, Template };

TritonKind kindOf(std::string_view n) {
  for (const char* p : {"triton_poi_", "triton_red_", "triton_per_", "triton_for_"})
    if (n.starts_with(p)) return TritonKind::Streaming;
  if (n.starts_with("triton_tem_")) return TritonKind::Template;
  return TritonKind::None;
}

// The template's GEMM: A and B are the first consecutive pair of rank-`rank` tensors
// whose inner dims meet (and, batched, whose batch agrees).
std::optional<GemmShape> templateGemm(const OpShapes& s, size_t rank) {
  for (size_t i = 0; i + 1 < s.inputs.size(); ++i) {
    const auto *a = s.tensor(i), *b = s.tensor(i + 1);
    if (!a || !b || a->size() != rank || b->size() != rank) continue;
    const size_t r = rank - 2;  // first matrix dim
    if ((*a)[r + 1] != (*b)[r] || (rank == 3 && (*a)[0] != (*b)[0])) continue;
    GemmShape g{rank == 3 ? (*a)[0] : 1, (*a)[r], (*b)[r + 1], (*a)[r + 1], s.type(i)};
    if (g.batch <= 0 || g.m <= 0 || g.n <= 0 || g.k <= 0) return std::nullopt;
    return g;
  }
  return std::nullopt;
}

}  // namespace

bool isTritonKernelName(std::string_view n) { return kindOf(n) != TritonKind::None; }

std::optional<OpPrediction> tritonPrediction(const GpuSpec& g, std::string_view name, const OpShapes& s, MathPath path,
                                             int64_t gridBlocks) {
  switch (kindOf(name)) {
    case TritonKind::None:
      return std::nullopt;
    case TritonKind::Streaming: {
      double bytes = 0;
      for (size_t i = 0; i < s.inputs.size(); ++i) bytes += s.bytes(i);
      if (bytes <= 0) return std::nullopt;
      return withWork(OpPrediction{memoryBoundUs(g, bytes, gridBlocks), "memory-bound (triton)"}, 0, bytes);
    }
    case TritonKind::Template: {
      if (name.find("mm") == std::string_view::npos) return std::nullopt;
      auto gemm = name.find("bmm") != std::string_view::npos ? templateGemm(s, 3) : templateGemm(s, 2);
      if (!gemm) return std::nullopt;
      gemm->tf32 = path.tf32;
      gemm->legacyTensorCores = path.legacyTensorCores;
      gemm->grid = path.grid;
      return withWork(OpPrediction{gemmRooflineUs(g, *gemm), "gemm roofline (triton)"}, gemmFlops(*gemm),
                      gemmBytes(*gemm), onTensorCores(gemm->dtype, gemm->tf32));
    }
  }
  return std::nullopt;
}

}  // namespace opscope
