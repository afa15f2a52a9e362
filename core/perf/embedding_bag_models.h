#pragma once
// torch.nn.EmbeddingBag from its recorded shapes, memory-bound (nothing to compute but
// sums of rows):
//   forward   reads the N looked-up rows of D and the indices and offsets, writes B bags
//             of D (max mode: and their int64 arg-max indices)
//   backward  (dense) writes the E×D weight gradient once (zero fill), reads a bag's
//             gradient row per index and accumulates it into its weight row (2·N·D),
//             sorting the int64 indices on the way (2·N·8 bytes)
// weight [E, D], indices [N] (1-D), offsets [B] (or B+1 with include_last_offset);
// E of the backward from num_weights in "Concrete Inputs" (no model without it).
#include <optional>
#include <string_view>

#include "perf/op_models.h"

namespace opscope {

// baseName: embedding_bag, _embedding_bag, _embedding_bag_backward,
// _embedding_bag_dense_backward.
std::optional<OpPrediction> embeddingBagPrediction(const GpuSpec& g, std::string_view baseName, const OpShapes& s);

}  // namespace opscope
