// FBGEMM table-batched embeddings (tbe_models.h): reading FBGEMM's arguments as Kineto
// records them, pairing a backward with its forward, pricing both with the notebook's
// predictors, and the public recommendation-model trace.
#include "perf/tbe_models.h"

#include <gtest/gtest.h>

#include "io/trace_loader.h"
#include "perf/op_inputs.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

const GpuSpec& a100() { return *builtinGpuSpecs().find("A100-SXM4-80GB"); }

OpShapes shapes(const std::string& dims, const std::string& concrete = "") {
  std::vector<NamedArg> args{{"Input Dims", ArgType::Json, 0, 0, dims}};
  if (!concrete.empty()) args.push_back({"Concrete Inputs", ArgType::Json, 0, 0, concrete});
  return opShapesFromArgs(args);
}

constexpr const char* kForward = "fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function";
constexpr const char* kBackward = "torch::autograd::CppNode<SplitLookupFunction_rowwise_adagrad_Op>";
// Two calls of the public recsys trace (rank 0, FBGEMM via TorchRec, A100), as recorded:
// six tables of 64 floats over a batch of 65536 with 33398 indices, and one weighted
// table of a single row whose bags are all empty.
const std::string kSixTables =
    "[[0], [25657792], [0], [0, 0], [6], [6], [7], [], [], [7], [], [33398], [393217], [], [], [], [0], [], [], "
    "[], [400903], [0], [6], [6], [], [], [], [], []]";
const std::string kWeighted =
    "[[0], [64], [0], [0, 0], [1], [1], [2], [], [], [2], [], [0], [65537], [], [0], [], [0], [], [], [], [1], "
    "[0], [1], [1], [], [], [], [], []]";

TEST(TbeModels, ReadsFbgemmsArgumentsAsTheProfilerRecordsThem) {
  const auto six = tbeCall(kForward, shapes(kSixTables));
  ASSERT_TRUE(six);
  EXPECT_FALSE(six->backward);
  EXPECT_EQ(six->optimizer, "rowwise_adagrad");
  EXPECT_EQ(six->tables, 6);
  EXPECT_EQ(six->batch, 65536);
  EXPECT_EQ(six->indices, 33398);
  EXPECT_EQ(six->dim(), 64);  // 25657792 weights over 400903 rows of momentum
  EXPECT_NEAR(six->bag(), 33398.0 / (6 * 65536), 1e-12);
  EXPECT_FALSE(six->weighted);
  EXPECT_TRUE(six->complete());  // a forward needs no pair when its D is known

  const auto one = tbeCall(kForward, shapes(kWeighted));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->tables, 1);
  EXPECT_EQ(one->indices, 0);
  EXPECT_EQ(one->dim(), 64);
  EXPECT_TRUE(one->weighted);

  // The backward: the pooled output's gradient [B, total_D], nothing more.
  const auto back = tbeCall(kBackward, shapes("[[65536, 384]]"));
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->backward);
  EXPECT_EQ(back->batch, 65536);
  EXPECT_EQ(back->totalDim, 384);
  EXPECT_FALSE(back->complete());  // T and N only come with its forward

  // SGD keeps no per-row state: D from total_D's concrete value when recorded, else
  // unknown until its backward says.
  const std::string sgd = "fbgemm::split_embedding_codegen_lookup_sgd_function";
  const std::string sgdDims = "[[0], [8192], [0], [0, 0], [2], [2], [3], [], [], [3], [], [100], [129]]";
  EXPECT_EQ(tbeCall(sgd, shapes(sgdDims))->totalDim, 0);
  EXPECT_EQ(tbeCall(sgd, shapes(sgdDims, R"(["", "", "", "", "", "", "", "64", "32"])"))->dim(), 32);

  // Shapes that are not FBGEMM's: no call, never a guess.
  EXPECT_FALSE(tbeCall(kForward, shapes("[[0], [64], [0], [0, 0], [4], [4], [5], [], [], [5], [], [10], [10]]")))
      << "offsets not T·B + 1";
  EXPECT_FALSE(tbeCall(kForward, shapes("[[0], [0], [4096], [0, 0], [1], [1], [2], [], [], [2], [], [1], [3]]")))
      << "tables in UVM";
  EXPECT_FALSE(tbeCall(kForward, shapes("[[0], [64], [0], [8, 64], [1], [1], [2], [], [], [2], [], [1], [3]]")))
      << "a software cache";
  EXPECT_FALSE(tbeCall("fbgemm::split_embedding_codegen_lookup_dense_function", shapes(kSixTables)));
  EXPECT_FALSE(tbeCall(kBackward, shapes("[[65536]]")));
  EXPECT_FALSE(tbeCall("autograd::engine::evaluate_function: " + std::string(kBackward), shapes("[[65536, 384]]")));
  EXPECT_FALSE(tbeCall(kForward, OpShapes{}));
  // Dims no real call has (a damaged file): refused before any product can overflow.
  EXPECT_FALSE(tbeCall(kForward, shapes("[[0], [64], [0], [0, 0], [9223372036854775807], [1], [2], [], [], [2], [], "
                                        "[1], [3]]")));
  EXPECT_FALSE(tbeCall(kForward, shapes("[[0], [64], [0], [9223372036854775807, 9223372036854775807], [1], [1], [2], "
                                        "[], [], [2], [], [1], [3]]")));
  EXPECT_FALSE(tbeCall(kBackward, shapes("[[9223372036854775807, 9223372036854775807]]")));
}

// Autograd runs a step's backwards in reverse: each takes the latest forward of its
// optimizer and batch whose tables and D fit its gradient.
TEST(TbeModels, PairsEachBackwardWithItsForward) {
  TbeCall f6 = *tbeCall(kForward, shapes(kSixTables)), f1 = *tbeCall(kForward, shapes(kWeighted));
  TbeCall b1 = *tbeCall(kBackward, shapes("[[65536, 64]]")), b6 = *tbeCall(kBackward, shapes("[[65536, 384]]"));
  TbeCall stray = *tbeCall(kBackward, shapes("[[1024, 384]]"));  // no forward of its batch
  std::vector<TbeCall*> calls{&f6, &f1, &b1, &b6, &stray};
  pairTbeCalls(calls);
  EXPECT_TRUE(b1.paired);
  EXPECT_EQ(b1.tables, 1);
  EXPECT_TRUE(b1.weighted);
  EXPECT_TRUE(b6.paired);
  EXPECT_EQ(b6.tables, 6);
  EXPECT_EQ(b6.indices, 33398);
  EXPECT_FALSE(b6.weighted);
  EXPECT_FALSE(stray.paired);
  EXPECT_FALSE(tbePrediction(a100(), stray, {}));

  // Not the latest forward when its gradient does not fit: six tables' 384 floats skip
  // the one-table forward of D 64 for the six-table one.
  TbeCall g6 = *tbeCall(kForward, shapes(kSixTables)), g1 = *tbeCall(kForward, shapes(kWeighted));
  TbeCall c6 = *tbeCall(kBackward, shapes("[[65536, 384]]")), c1 = *tbeCall(kBackward, shapes("[[65536, 64]]"));
  std::vector<TbeCall*> swapped{&g6, &g1, &c6, &c1};
  pairTbeCalls(swapped);
  EXPECT_EQ(c6.tables, 6);
  EXPECT_EQ(c1.tables, 1);

  // Two ranks of a merged session, interleaved in time: each backward takes its own
  // rank's forward (here with another N), not the other's later one.
  TbeCall r0 = *tbeCall(kForward, shapes(kSixTables)), r1 = *tbeCall(kForward, shapes(kSixTables));
  TbeCall r0b = *tbeCall(kBackward, shapes("[[65536, 384]]")), r1b = *tbeCall(kBackward, shapes("[[65536, 384]]"));
  r1.indices = 40000;
  r1.group = r1b.group = 1;
  std::vector<TbeCall*> ranks{&r0, &r1, &r0b, &r1b};
  pairTbeCalls(ranks);
  EXPECT_EQ(r0b.indices, 33398);
  EXPECT_EQ(r1b.indices, 40000);

  // A backward before any forward (the profiler started mid-step) takes none; the next
  // step's pair still forms. An SGD forward learns its D from its backward.
  TbeCall early = *tbeCall(kBackward, shapes("[[65536, 384]]"));
  TbeCall f6b = *tbeCall(kForward, shapes(kSixTables)), b6b = *tbeCall(kBackward, shapes("[[65536, 384]]"));
  const std::string sgdDims = "[[0], [8192], [0], [0, 0], [2], [2], [3], [], [], [3], [], [100], [129]]";
  TbeCall fs = *tbeCall("fbgemm::split_embedding_codegen_lookup_sgd_function", shapes(sgdDims));
  TbeCall bs = *tbeCall("torch::autograd::CppNode<SplitLookupFunction_sgd_Op>", shapes("[[64, 48]]"));
  std::vector<TbeCall*> next{&early, &f6b, &fs, &bs, &b6b};
  pairTbeCalls(next);
  EXPECT_FALSE(early.paired);
  EXPECT_TRUE(b6b.paired);
  EXPECT_TRUE(bs.paired);
  EXPECT_EQ(fs.dim(), 24);
  EXPECT_EQ(bs.indices, 100);
}

// The forward is the notebook's predictor on T, B, mean L, mean E and D (rows per block
// from the kernel's block.y); the backward its optimizer's update plus FBGEMM's index
// sort, which the notebook left out.
TEST(TbeModels, PricesWithTheNotebooksPredictors) {
  const GpuSpec& g = a100();
  TbeCall f6 = *tbeCall(kForward, shapes(kSixTables)), b6 = *tbeCall(kBackward, shapes("[[65536, 384]]"));
  std::vector<TbeCall*> calls{&f6, &b6};
  pairTbeCalls(calls);
  EmbeddingShape e;
  e.batch = 65536;
  e.tables = 6;
  e.bag = 33398.0 / (6 * 65536);
  e.dim = 64;
  e.rows = 25657792 / 384;
  e.rowsPerBlock = 16;
  const KernelLaunch fwdKernel(
      "void split_embedding_codegen_forward_unweighted_kernel<float, float, float, false, long, 1ul, 16ul>(...)",
      {12288, 1, 1}, {32, 16, 1});
  const auto fwd = tbePrediction(g, f6, {fwdKernel});
  ASSERT_TRUE(fwd);
  EXPECT_EQ(fwd->model, "TBE forward");
  EXPECT_DOUBLE_EQ(fwd->us, embeddingForwardUs(g, e));
  EXPECT_GT(fwd->us, 40);  // B·T output rows of 256 bytes at least: 100 MB
  // A kernel besides the lookup costs a floor; without a block, 32 rows per block.
  e.rowsPerBlock = 32;
  EXPECT_DOUBLE_EQ(tbePrediction(g, f6, {"bounds_check", "split_embedding_codegen_forward_x"})->us,
                   embeddingForwardUs(g, e) + g.kernelFloorUs);

  const std::vector<KernelLaunch> backwardKernels{
      "linearize_index_kernel", "cub::DeviceRadixSortOnesweepKernel",
      "split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_cta_per_row_1",
      "split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_warp_per_row_1"};
  const auto bwd = tbePrediction(g, b6, backwardKernels);
  ASSERT_TRUE(bwd);
  EXPECT_EQ(bwd->model, "TBE backward (rowwise adagrad)");
  const double update = embeddingBackwardRowwiseAdagradUs(g, e);
  EXPECT_GT(bwd->us, update + g.kernelFloorUs);      // the sort: two kernels, one floor past its bytes
  EXPECT_LT(bwd->us, update + 4 * g.kernelFloorUs);  // 35 k indices are a few MB: floors, not bandwidth

  // SGD's update instead; other optimizers have no backward model (their forward is priced).
  TbeCall sgd = b6;
  sgd.optimizer = "sgd";
  EXPECT_EQ(tbePrediction(g, sgd, backwardKernels)->model, "TBE backward (sgd)");
  EXPECT_NE(tbePrediction(g, sgd, backwardKernels)->us, bwd->us);
  TbeCall adam = b6;
  adam.optimizer = "adam";
  EXPECT_FALSE(tbePrediction(g, adam, backwardKernels));
  TbeCall adamForward = f6;
  adamForward.optimizer = "adam";
  EXPECT_TRUE(tbePrediction(g, adamForward, {fwdKernel}));

  // A weighted table whose bags are all empty: no update, no sort, but the weights'
  // gradient still reads every bag's gradient row (16 MB here).
  TbeCall f1 = *tbeCall(kForward, shapes(kWeighted)), b1 = *tbeCall(kBackward, shapes("[[65536, 64]]"));
  std::vector<TbeCall*> weighted{&f1, &b1};
  pairTbeCalls(weighted);
  const auto w = tbePrediction(g, b1, {"split_embedding_codegen_grad_indice_weights_kernel"});
  ASSERT_TRUE(w);
  EXPECT_NEAR(w->us, memoryBoundUs(g, 8 * 65537 + 65536 * 256.0), 1e-9);
}

// The public recommendation-model trace: every TBE forward and backward is priced (the
// backward through the forward that preceded it), within the notebook's accuracy for
// the large calls, and the models cover more of the GPU time than without them.
TEST(TbeModels, OnThePublicRecommendationTrace) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const auto calls = tbeCallsOf(OpInputs(*r.trace));
  size_t forwards = 0, backwards = 0;
  for (const auto& [packed, c] : calls) {
    EXPECT_TRUE(c.complete()) << c.optimizer << " T=" << c.tables << " backward=" << c.backward;
    ++(c.backward ? backwards : forwards);
  }
  EXPECT_EQ(forwards, 10u);
  EXPECT_EQ(backwards, 10u);

  PredictionSetup setup;
  setup.gpu = a100();
  const PredictionResult rep = runPrediction(*r.trace, setup);
  size_t forwardRows = 0, backwardRows = 0;
  for (const OpRow& row : rep.ops) {
    const std::string_view name = r.trace->name(row.op);
    if (name == kForward) {
      ++forwardRows;
      EXPECT_EQ(row.model, "TBE forward");
      ASSERT_TRUE(row.predictedUs);
      if (row.measuredGpu > 50'000) {
        EXPECT_NEAR(*row.predictedUs, row.measuredGpu / 1e3, 0.3 * row.measuredGpu / 1e3);
      }
    } else if (name.ends_with(kBackward)) {
      ++backwardRows;
      EXPECT_EQ(row.model, "sum of sub-ops");  // the evaluate_function node over the CppNode
      ASSERT_TRUE(row.predictedUs);
      if (row.measuredGpu > 100'000) {
        EXPECT_NEAR(*row.predictedUs, row.measuredGpu / 1e3, 0.5 * row.measuredGpu / 1e3);
      }
    }
  }
  EXPECT_EQ(forwardRows, 10u);
  EXPECT_EQ(backwardRows, 10u);
  EXPECT_GE(rep.coverage, 0.618);  // 61.5 % before the TBE models
}

}  // namespace
}  // namespace opscope
