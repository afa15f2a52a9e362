// Attention and EmbeddingBag models on the shapes PyTorch 2.11 recorded in
// tests/data/pytorch_h100 (transformer: 16x16x512x64 bf16; DDP: a 100000x128 bag), by hand.
#include "perf/attention_models.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "perf/embedding_bag_models.h"

namespace opscope {
namespace {

const GpuSpec& h100() { return *builtinGpuSpecs().find("H100-SXM"); }

OpShapes shapes(std::vector<std::vector<std::vector<int64_t>>> inputs, std::vector<DType> types,
                std::vector<std::string> concrete) {
  OpShapes s;
  s.dimsText = "recorded";
  s.inputs = std::move(inputs);
  s.types = std::move(types);
  s.concrete = std::move(concrete);
  return s;
}

TEST(AttentionModels, FusedAttentionForwardAndBackwardAtTheTensorCorePeak) {
  const GpuSpec& g = h100();
  const std::vector<int64_t> qkv = {16, 16, 512, 64};
  const DType bf = DType::BF16;
  // scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, scale, enable_gqa)
  const auto fwd = [&](std::string causal) {
    return shapes({{qkv}, {qkv}, {qkv}, {}, {}, {}, {}, {}}, {bf, bf, bf, DType::Unknown},
                  {"", "", "", "", "0.1", causal, "", "False"});
  };
  const double flops = 2.0 * 256 * 512 * 512 * (64 + 64);  // QKᵀ and PV
  const double bytes = 4.0 * 256 * 512 * 64 * 2;           // Q, K, V, O
  auto p = attentionPrediction(g, "scaled_dot_product_attention", fwd("False"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->model, "attention roofline");
  EXPECT_NEAR(p->us, std::max({flops / (g.bf16 * 1e12) * 1e6, g.dramUs(bytes), g.kernelFloorUs}), 1e-9);
  auto causal = attentionPrediction(g, "scaled_dot_product_attention", fwd("True"));
  ASSERT_TRUE(causal);
  EXPECT_NEAR(causal->us, std::max({flops / 2 / (g.bf16 * 1e12) * 1e6, g.dramUs(bytes), g.kernelFloorUs}), 1e-9);
  // cuDNN's backward: grad_out, q, k, v, out, logsumexp, ..., is_causal at 14.
  std::vector<std::vector<std::vector<int64_t>>> in = {{qkv}, {qkv}, {qkv}, {qkv}, {qkv}, {{16, 16, 512, 1}}};
  in.resize(16);
  std::vector<std::string> concrete(16);
  concrete[14] = "False";
  auto back = attentionPrediction(g, "_scaled_dot_product_cudnn_attention_backward",
                                  shapes(in, {bf, bf, bf, bf, bf, DType::F32}, concrete));
  ASSERT_TRUE(back);
  EXPECT_NEAR(back->us, std::max({2.5 * flops / (g.bf16 * 1e12) * 1e6, g.dramUs(2 * bytes), g.kernelFloorUs}), 1e-9);
  // Keys of another head size than the queries: not attention we can price.
  EXPECT_FALSE(attentionPrediction(g, "scaled_dot_product_attention",
                                   shapes({{qkv}, {{16, 16, 512, 32}}, {qkv}}, {bf, bf, bf}, {})));
  EXPECT_FALSE(attentionPrediction(g, "softmax", fwd("False")));
}

TEST(AttentionModels, EmbeddingBagGathersItsRowsAndItsBackwardAccumulatesThem) {
  const GpuSpec& g = h100();
  const DType f = DType::F32, l = DType::I64;
  // embedding_bag(weight 100000x128, indices 40960, offsets 2048, ..., mode 0 (sum))
  auto fwd = embeddingBagPrediction(g, "embedding_bag",
                                    shapes({{{100000, 128}}, {{40960}}, {{2048}}, {}, {}, {}, {}, {}, {}}, {f, l, l},
                                           {"", "", "", "False", "0", "False", "", "False", ""}));
  ASSERT_TRUE(fwd);
  EXPECT_EQ(fwd->model, "memory-bound (embedding bag)");
  EXPECT_NEAR(fwd->us, std::max(g.dramUs(40960.0 * 128 * 4 + (40960.0 + 2048) * 8 + 2048.0 * 128 * 4), g.kernelFloorUs),
              1e-9);
  // _embedding_bag_backward(grad 2048x128, indices, offsets, offset2bag, bag_size,
  // max_indices, num_weights 100000, scale_grad_by_freq, mode, sparse, ...)
  std::vector<std::string> concrete = {"", "", "", "", "", "", "100000", "False", "0", "False", "", "-1"};
  auto back = embeddingBagPrediction(
      g, "_embedding_bag_backward",
      shapes({{{2048, 128}}, {{40960}}, {{2048}}, {{40960}}, {{2048}}, {{0}}, {}, {}, {}, {}, {}, {}},
             {f, l, l, l, l, l}, concrete));
  ASSERT_TRUE(back);
  EXPECT_NEAR(back->us, g.dramUs(100000.0 * 128 * 4 + 2 * 40960.0 * 128 * 4 + 2 * 40960.0 * 8), 1e-9);
  concrete[9] = "True";  // sparse: no dense gradient to fill
  back = embeddingBagPrediction(
      g, "_embedding_bag_backward",
      shapes({{{2048, 128}}, {{40960}}, {{2048}}, {{40960}}, {{2048}}, {{0}}, {}, {}, {}, {}, {}, {}},
             {f, l, l, l, l, l}, concrete));
  ASSERT_TRUE(back);
  EXPECT_NEAR(back->us, std::max(g.dramUs(2 * 40960.0 * 128 * 4 + 2 * 40960.0 * 8), g.kernelFloorUs), 1e-9);
  // Without num_weights the gradient's size is unknown.
  EXPECT_FALSE(embeddingBagPrediction(g, "_embedding_bag_backward", shapes({{{2048, 128}}, {{40960}}}, {f, l}, {})));
}

}  // namespace
}  // namespace opscope
