#pragma once
// Scaled dot-product attention from its recorded shapes: the fused kernels (flash,
// memory-efficient, cuDNN) compute S = QKᵀ and O = PV without writing S, so they are a
// roofline of their GEMMs' FLOPs at the dtype's peak and the bytes of Q, K, V and O:
//   forward   2·B·H·Lq·Lk·(D + Dv) FLOPs, half with is_causal
//   backward  2.5× the forward (S recomputed, then dV, dP, dQ, dK: five GEMMs for two),
//             reading Q, K, V, O and dO, writing dQ, dK, dV
// Shapes are [B, H, L, D] (a missing batch dim counts as 1); is_causal comes from
// "Concrete Inputs" (taken as False when absent).
#include <optional>
#include <string_view>

#include "perf/op_models.h"

namespace opscope {

// baseName: the op's name without "aten::" (scaled_dot_product_attention,
// _scaled_dot_product_{flash,efficient,cudnn}_attention and their _backward).
std::optional<OpPrediction> attentionPrediction(const GpuSpec& g, std::string_view baseName, const OpShapes& s);

}  // namespace opscope
