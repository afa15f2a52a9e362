#include "perf/embedding_bag_models.h"

namespace opscope {

std::optional<OpPrediction> embeddingBagPrediction(const GpuSpec& g, std::string_view n, const OpShapes& s) {
  const char* model = "memory-bound (embedding bag)";
  if (n == "embedding_bag" || n == "_embedding_bag") {
    // weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
    // include_last_offset, padding_idx
    const auto *w = s.tensor(0), *idx = s.tensor(1), *off = s.tensor(2);
    if (!w || !idx || !off || w->size() != 2 || idx->size() != 1 || off->size() != 1) return std::nullopt;
    const double d = static_cast<double>((*w)[1]), rows = static_cast<double>((*idx)[0]);
    double bags = static_cast<double>((*off)[0]);
    if (s.concreteBool(7).value_or(false)) bags -= 1;
    if (d <= 0 || rows < 0 || bags < 0) return std::nullopt;
    const double size = dtypeBytes(s.type(0)), index = dtypeBytes(s.type(1));
    const bool maxMode = s.concreteInts(4) && s.concreteInts(4)->front() == 2;
    const double bytes = rows * d * size + (rows + bags) * index + bags * d * (size + (maxMode ? 8 : 0));
    return withWork(OpPrediction{memoryBoundUs(g, bytes), model}, 0, bytes);
  }
  int numWeights = -1;
  if (n == "_embedding_bag_backward")
    numWeights = 6;  // grad, indices, offsets, offset2bag, bag_size, max_indices, num_weights, ..., sparse (9)
  if (n == "_embedding_bag_dense_backward")
    numWeights = 5;  // grad, indices, offset2bag, bag_size, max_indices, num_weights
  if (numWeights < 0) return std::nullopt;
  const auto *grad = s.tensor(0), *idx = s.tensor(1);
  const auto e = s.concreteInts(static_cast<size_t>(numWeights));
  if (!grad || !idx || grad->size() != 2 || idx->size() != 1 || !e || e->size() != 1) return std::nullopt;
  const double d = static_cast<double>((*grad)[1]), rows = static_cast<double>((*idx)[0]);
  const double size = dtypeBytes(s.type(0));
  const bool sparse = n == "_embedding_bag_backward" && s.concreteBool(9).value_or(false);
  const double bytes = (sparse ? 0 : static_cast<double>(e->front()) * d * size) + 2 * rows * d * size + 2 * rows * 8;
  if (bytes <= 0) return std::nullopt;
  return withWork(OpPrediction{memoryBoundUs(g, bytes), model}, 0, bytes);
}

}  // namespace opscope
