// Collective models: bus bytes and link choice worked by hand, the three ways traces
// record a collective's size, and the real recommendation-model trace.
#include "perf/collective_models.h"

#include <gtest/gtest.h>

#include <cmath>

#include "io/trace_loader.h"
#include "perf/op_models.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

const GpuSpec& a100() { return *builtinGpuSpecs().find("A100-SXM4-80GB"); }

TEST(CollectiveModels, NamesOfC10dOpsAnnotationsAndPyTorchsCollectiveName) {
  EXPECT_EQ(collectiveKindFromName("c10d::allreduce_"), CollectiveKind::AllReduce);
  EXPECT_EQ(collectiveKindFromName("nccl:all_reduce"), CollectiveKind::AllReduce);
  EXPECT_EQ(collectiveKindFromCommsName("allreduce_coalesced"), CollectiveKind::AllReduce);
  EXPECT_EQ(collectiveKindFromName("c10d::alltoall_base_"), CollectiveKind::AllToAll);
  EXPECT_EQ(collectiveKindFromName("nccl:all_to_all"), CollectiveKind::AllToAll);
  EXPECT_EQ(collectiveKindFromName("c10d::_allgather_base_"), CollectiveKind::AllGather);
  EXPECT_EQ(collectiveKindFromCommsName("allgather_into_tensor_coalesced"), CollectiveKind::AllGather);
  EXPECT_EQ(collectiveKindFromCommsName("all_to_all"), CollectiveKind::AllToAll);
  EXPECT_EQ(collectiveKindFromCommsName("send"), CollectiveKind::PointToPoint);
  EXPECT_EQ(collectiveKindFromName("nccl:_reduce_scatter_base"), CollectiveKind::ReduceScatter);
  EXPECT_EQ(collectiveKindFromCommsName("reduce_scatter_tensor_coalesced"), CollectiveKind::ReduceScatter);
  EXPECT_EQ(collectiveKindFromName("c10d::broadcast_"), CollectiveKind::Broadcast);
  EXPECT_EQ(collectiveKindFromName("c10d::reduce_"), CollectiveKind::Reduce);
  EXPECT_EQ(collectiveKindFromName("nccl:recv"), CollectiveKind::PointToPoint);
  EXPECT_FALSE(collectiveKindFromName("c10d::barrier"));  // moves nothing
  EXPECT_FALSE(collectiveKindFromName("aten::send"));     // another namespace
  EXPECT_FALSE(collectiveKindFromName("aten::sum"));
  EXPECT_FALSE(collectiveKindFromName("record_param_comms"));
  // FBGEMM's wrappers hold more than their collective: only c10d ops and annotations.
  EXPECT_FALSE(collectiveKindFromName("ReduceScatterBase_WaitBackward"));
  EXPECT_FALSE(collectiveKindFromName("All2All_Pooled_Req"));
  EXPECT_FALSE(collectiveKindFromName("allreduce"));
}

TEST(CollectiveModels, BusBytesAndLinksWorkedByHand) {
  const GpuSpec& g = a100();  // NVLink 600 both ways: 300 GB/s; one 25 GB/s NIC per GPU, 8 per node
  const double gb = 1e9;
  // Ring all-reduce of 1 GB on 8 GPUs of one node: 2·7/8 GB over 300 GB/s.
  EXPECT_NEAR(collectiveBusBytes({CollectiveKind::AllReduce, gb, 8}), 1.75e9, 1);
  EXPECT_NEAR(collectiveUs(g, {CollectiveKind::AllReduce, gb, 8}), kIntraNodeLatencyUs + 1.75e9 / 300e3, 1e-6);
  // 16 ranks span two nodes: the ring runs at min(300, 8 × 25) = 200 GB/s.
  EXPECT_NEAR(collectiveUs(g, {CollectiveKind::AllReduce, gb, 16}), kInterNodeLatencyUs + 2 * 15.0 / 16 * gb / 200e3,
              1e-6);
  // All-gather / reduce-scatter move (n−1)/n of the whole buffer.
  EXPECT_NEAR(collectiveUs(g, {CollectiveKind::AllGather, gb, 4}), kIntraNodeLatencyUs + 0.75e9 / 300e3, 1e-6);
  EXPECT_NEAR(collectiveUs(g, {CollectiveKind::ReduceScatter, gb, 4}), kIntraNodeLatencyUs + 0.75e9 / 300e3, 1e-6);
  // All-to-all on 16: 7/16 of the buffer stays in the node (NVLink), 8/16 leaves through
  // the GPU's own NIC, at the same time; the NIC is the slower.
  EXPECT_NEAR(collectiveUs(g, {CollectiveKind::AllToAll, gb, 16}), kInterNodeLatencyUs + 0.5e9 / 25e3, 1e-6);
  EXPECT_NEAR(collectiveUs(g, {CollectiveKind::AllToAll, gb, 8}), kIntraNodeLatencyUs + 7.0 / 8 * gb / 300e3, 1e-6);
  // Nothing to move: the kernel floor.
  EXPECT_EQ(collectiveUs(g, {CollectiveKind::AllReduce, gb, 1}), g.kernelFloorUs);
  EXPECT_EQ(collectiveUs(g, {CollectiveKind::AllReduce, 0, 8}), g.kernelFloorUs);
  // No NVLink (A10G): inside the node over PCIe.
  const GpuSpec& a10g = *builtinGpuSpecs().find("A10G");
  EXPECT_NEAR(collectiveUs(a10g, {CollectiveKind::AllReduce, gb, 2}), kIntraNodeLatencyUs + gb / (a10g.pcieGBs * 1e3),
              1e-6);
  // A faster GPU generation is faster by its links: H100's NVLink is 1.5× A100's.
  const GpuSpec& h100 = *builtinGpuSpecs().find("H100-SXM");
  const double big = 100 * gb;
  EXPECT_NEAR((collectiveUs(g, {CollectiveKind::AllReduce, big, 8}) - kIntraNodeLatencyUs) /
                  (collectiveUs(h100, {CollectiveKind::AllReduce, big, 8}) - kIntraNodeLatencyUs),
              1.5, 1e-9);
}

NamedArg intArg(std::string key, int64_t v) {
  NamedArg a;
  a.key = std::move(key);
  a.type = ArgType::Int;
  a.i = v;
  return a;
}
NamedArg textArg(std::string key, std::string v, ArgType type = ArgType::String) {
  NamedArg a;
  a.key = std::move(key);
  a.type = type;
  a.text = std::move(v);
  return a;
}

TEST(CollectiveModels, MessageFromRecordParamCommsAndFromOlderTracesInputDims) {
  // PyTorch 2.x (the args of tests/data/pytorch_h100/h100_ddp_embedding_mlp, group of 4).
  std::vector<NamedArg> comms = {textArg("Collective name", "allreduce"), textArg("dtype", "Float"),
                                 intArg("In msg nelems", 1050625), intArg("Out msg nelems", 1050625),
                                 intArg("Group size", 4)};
  auto c = collectiveFromArgs("record_param_comms", comms, std::nullopt);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, CollectiveKind::AllReduce);
  EXPECT_EQ(c->bytes, 1050625.0 * 4);
  EXPECT_EQ(c->groupSize, 4);
  // All-gather: the gathered output is the buffer; bf16 is 2 bytes.
  comms = {textArg("Collective name", "_allgather_base"), textArg("dtype", "BFloat16"), intArg("In msg nelems", 1000),
           intArg("Out msg nelems", 8000), textArg("Process Group Ranks", "[0, 1, 2, 3, 4, 5, 6, 7]")};
  c = collectiveFromArgs("record_param_comms", comms, 64);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, CollectiveKind::AllGather);
  EXPECT_EQ(c->bytes, 16000);
  EXPECT_EQ(c->groupSize, 8);  // the group's ranks, not the world

  // Older traces (the public recsys one): c10d ops list output then input; the nccl:
  // annotation records the input; the group is the world.
  const std::vector<NamedArg> a2a = {
      textArg("Input Dims", "[[2883584], [3145728], [], [], [], []]", ArgType::Json),
      textArg("Input type", R"(["float", "float", "", "", "", "Scalar"])", ArgType::Json)};
  c = collectiveFromArgs("c10d::alltoall_base_", a2a, 16);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, CollectiveKind::AllToAll);
  EXPECT_EQ(c->bytes, 3145728.0 * 4);  // the send buffer
  EXPECT_EQ(c->groupSize, 16);
  const std::vector<NamedArg> ag = {textArg("Input Dims", "[[8192, 384]]", ArgType::Json),
                                    textArg("Input type", R"(["float"])", ArgType::Json)};
  c = collectiveFromArgs("nccl:_all_gather_base", ag, 16);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->bytes, 16.0 * 8192 * 384 * 4);
  // No group size anywhere, no size, not a collective: no model.
  EXPECT_FALSE(collectiveFromArgs("nccl:_all_gather_base", ag, std::nullopt));
  const std::vector<NamedArg> empty = {textArg("Input Dims", "[[], [], [], []]", ArgType::Json)};
  EXPECT_FALSE(collectiveFromArgs("c10d::allreduce_", empty, 16));
  EXPECT_FALSE(collectiveFromArgs("aten::add", a2a, 16));
}

// The shapes of the public recsys trace: DDP's all-reduce inside AccumulateGrad with
// its size only on the innermost nccl: annotation; FBGEMM's All2All_Pooled_Req with
// its alltoall inside a record_function annotation; a world of 16.
const char* kJob = R"({"distributedInfo":{"backend":"nccl","rank":0,"world_size":16},"traceEvents":[
  {"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::add_","pid":1,"tid":1,"ts":1,"dur":10,
   "args":{"Input Dims":[[1024,1024],[1024,1024],[]],"Input type":["float","float","Scalar"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":2,"dur":3,"args":{"correlation":1}},
  {"ph":"X","cat":"cpu_op","name":"c10d::allreduce_","pid":1,"tid":1,"ts":20,"dur":50,
   "args":{"Input Dims":[[],[],[],[]],"Input type":["","","",""]}},
  {"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":21,"dur":45,
   "args":{"Input Dims":[[],[],[],[],[],[],[]],"Input type":["Scalar","Scalar","Scalar","","","",""]}},
  {"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":1,"tid":1,"ts":22,"dur":40,
   "args":{"Input Dims":[[250000000]],"Input type":["float"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":30,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"cpu_op","name":"All2All_Pooled_Req","pid":1,"tid":1,"ts":200,"dur":100},
  {"ph":"X","cat":"user_annotation","name":"## alltoall_fwd_single ##","pid":1,"tid":1,"ts":201,"dur":90},
  {"ph":"X","cat":"cpu_op","name":"c10d::alltoall_base_","pid":1,"tid":1,"ts":202,"dur":80,
   "args":{"Input Dims":[[4000000],[4000000],[],[],[],[]],"Input type":["float","float","","","","Scalar"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":210,"dur":5,"args":{"correlation":3}},
  {"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReduceScatterBase_WaitBackward","pid":1,"tid":1,"ts":400,"dur":200},
  {"ph":"X","cat":"cpu_op","name":"ReduceScatterBase_WaitBackward","pid":1,"tid":1,"ts":401,"dur":170,
   "args":{"Input Dims":[[8192,64]],"Input type":["float"]}},
  {"ph":"X","cat":"user_annotation","name":"## reduce_scatter_base_bw (all_gather) ##","pid":1,"tid":1,"ts":440,"dur":127},
  {"ph":"X","cat":"cpu_op","name":"c10d::_allgather_base_","pid":1,"tid":1,"ts":472,"dur":82,
   "args":{"Input Dims":[[65536,64],[8192,64],[]],"Input type":["float","float",""]}},
  {"ph":"X","cat":"user_annotation","name":"nccl:_all_gather_base","pid":1,"tid":1,"ts":487,"dur":63,
   "args":{"Input Dims":[[8192,64]],"Input type":["float"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":515,"dur":10,"args":{"correlation":4}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_AllGather_RING_LL_Sum_int8_t","pid":0,"tid":84,"ts":11200,"dur":400,"args":{"correlation":4,"stream":84,"device":0}},
  {"ph":"X","cat":"kernel","name":"add_kernel","pid":0,"tid":7,"ts":10,"dur":20,"args":{"correlation":1,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float","pid":0,"tid":84,"ts":40,"dur":9000,"args":{"correlation":2,"stream":84,"device":0}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t","pid":0,"tid":84,"ts":9100,"dur":2000,"args":{"correlation":3,"stream":84,"device":0}}
]})";

TEST(CollectiveModels, CollectivesNestedInBackwardNodesAndAnnotationsArePredicted) {
  auto t = test::loadOk(kJob);
  ASSERT_TRUE(t);
  const OpModels models(a100());
  const std::vector<OpRow> rows = predictOps(*t, models, std::nullopt);
  ASSERT_EQ(rows.size(), 3u);
  // AccumulateGrad = its add_ + the 1 GB ring all-reduce over two nodes.
  EXPECT_EQ(rows[0].model, "sum of sub-ops");
  ASSERT_TRUE(rows[0].predictedUs);
  const double add = memoryBoundUs(a100(), 3.0 * 1024 * 1024 * 4);
  const double allReduce = kInterNodeLatencyUs + 2 * 15.0 / 16 * 1e9 / 200e3;
  EXPECT_NEAR(*rows[0].predictedUs, add + allReduce, 1e-6);
  // All2All_Pooled_Req = its alltoall through the annotation: 8/16 of 16 MB via the NIC.
  EXPECT_EQ(t->name(rows[1].op), "All2All_Pooled_Req");
  EXPECT_EQ(rows[1].model, "sum of sub-ops");
  ASSERT_TRUE(rows[1].predictedUs);
  EXPECT_NEAR(*rows[1].predictedUs, kInterNodeLatencyUs + 16e6 * 8 / 16 / 25e3, 1e-6);
  // FBGEMM's backward wrapper is no collective itself (its name says reduce-scatter and
  // its own Input Dims are the 8192x64 shard); its all-gather of 65536x64 floats is.
  EXPECT_EQ(rows[2].model, "sum of sub-ops");
  ASSERT_TRUE(rows[2].predictedUs);
  EXPECT_NEAR(*rows[2].predictedUs, kInterNodeLatencyUs + 15.0 / 16 * 65536 * 64 * 4 / 200e3, 1e-6);
}

// The public recommendation-model trace (16 ranks on A100s): collectives are 40 % of
// its op GPU time; with them the models cover more than 60 % of it, and the iteration
// stays within 10 %.
TEST(CollectiveModels, RecsysTraceCoverageAndIterationError) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces is not here";
  LoadResult r = loadTraceFile(*path);
  ASSERT_TRUE(r.trace) << r.error;
  PredictionSetup setup;
  std::string reason;
  auto gpu = gpuForTrace(*r.trace, builtinGpuSpecs(), reason);
  ASSERT_TRUE(gpu) << reason;
  EXPECT_EQ(gpu->name, "A100-SXM4-80GB");
  setup.gpu = *gpu;
  const PredictionResult rep = runPrediction(*r.trace, setup);
  EXPECT_GE(rep.coverage, 0.60);
  ASSERT_EQ(rep.iterations.size(), 5u);
  EXPECT_LE(rep.iterationErrorPctMean, 10.0);
  size_t collectives = 0;
  for (const OpRow& row : rep.ops)
    if (row.model.starts_with("collective")) ++collectives;
  EXPECT_GE(collectives, 25u);  // the 25 top-level c10d::alltoall_base_ calls at least
}

}  // namespace
}  // namespace opscope
