#include "perf/attention_models.h"

#include <algorithm>

namespace opscope {

namespace {

// Where an attention op keeps query, key, value and is_causal among its inputs.
struct AttentionArgs {
  int query, causal;
  bool backward;
};
std::optional<AttentionArgs> attentionArgs(std::string_view n) {
  if (n == "scaled_dot_product_attention") return AttentionArgs{0, 5, false};
  if (n == "_scaled_dot_product_flash_attention") return AttentionArgs{0, 4, false};
  if (n == "_scaled_dot_product_efficient_attention" || n == "_scaled_dot_product_cudnn_attention")
    return AttentionArgs{0, 6, false};
  if (n == "_scaled_dot_product_flash_attention_backward") return AttentionArgs{1, 11, true};
  if (n == "_scaled_dot_product_efficient_attention_backward") return AttentionArgs{1, 11, true};
  if (n == "_scaled_dot_product_cudnn_attention_backward") return AttentionArgs{1, 14, true};
  return std::nullopt;
}

// [B, H, L, D] or [H, L, D]: (batch·heads, L, D).
struct Dims {
  double bh = 0, l = 0, d = 0;
};
std::optional<Dims> dims(const std::vector<int64_t>* t) {
  if (!t || t->size() < 3 || t->size() > 4) return std::nullopt;
  Dims out{1, 0, 0};
  for (size_t i = 0; i + 2 < t->size(); ++i) out.bh *= static_cast<double>((*t)[i]);
  out.l = static_cast<double>((*t)[t->size() - 2]);
  out.d = static_cast<double>(t->back());
  if (out.bh <= 0 || out.l <= 0 || out.d <= 0) return std::nullopt;
  return out;
}

}  // namespace

std::optional<OpPrediction> attentionPrediction(const GpuSpec& g, std::string_view n, const OpShapes& s) {
  const auto args = attentionArgs(n);
  if (!args) return std::nullopt;
  const size_t q0 = static_cast<size_t>(args->query);
  const auto q = dims(s.tensor(q0)), k = dims(s.tensor(q0 + 1)), v = dims(s.tensor(q0 + 2));
  if (!q || !k || !v || k->l != v->l || q->d != k->d) return std::nullopt;
  const bool causal = s.concreteBool(static_cast<size_t>(args->causal)).value_or(false);
  double flops = 2 * q->bh * q->l * k->l * (q->d + v->d) * (causal ? 0.5 : 1);
  const double size = dtypeBytes(s.type(q0));
  const double qBytes = q->bh * q->l * q->d * size, kBytes = k->bh * k->l * k->d * size,
               vBytes = v->bh * v->l * v->d * size, oBytes = q->bh * q->l * v->d * size;
  double bytes = qBytes + kBytes + vBytes + oBytes;
  if (args->backward) {
    flops *= 2.5;
    bytes = 2 * (qBytes + kBytes + vBytes) + 2 * oBytes;  // Q K V O dO read, dQ dK dV written
  }
  return withWork(OpPrediction{rooflineUs(g, flops, bytes, s.type(q0)), "attention roofline"}, flops, bytes,
                  onTensorCores(s.type(q0), false));
}

}  // namespace opscope
