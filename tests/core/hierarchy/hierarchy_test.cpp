#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "hierarchy/iterations.h"
#include "hierarchy/nesting.h"
#include "hierarchy/queries.h"
#include "test_support.h"

namespace opscope {
namespace {

using test::loadOk;
using test::only;

// A small Kineto-shaped iteration: step -> op -> sub-op -> launches; kernels on two
// streams; one CUDA-graph launch with two kernels; ac2g and fwdbwd flows.
const char* kTrace = R"({"schemaVersion":1,"traceEvents":[
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#7","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":40,"args":{"External id":1}},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":12,"dur":30,"args":{"External id":2}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":14,"dur":5,"args":{"External id":2,"correlation":100}},
  {"ph":"s","cat":"ac2g","name":"ac2g","id":100,"pid":1,"tid":1,"ts":14},
  {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":25,"dur":5,"args":{"External id":2,"correlation":101}},
  {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":55,"dur":20,"args":{"External id":3}},
  {"ph":"s","cat":"fwdbwd","name":"fwdbwd","id":1,"pid":1,"tid":1,"ts":55},
  {"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":60,"dur":5,"args":{"External id":3,"correlation":102}},
  {"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReluBackward0","pid":1,"tid":2,"ts":80,"dur":10},
  {"ph":"f","cat":"fwdbwd","name":"fwdbwd","id":1,"pid":1,"tid":2,"ts":80,"bp":"e"},
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":100,"device":0,"stream":7}},
  {"ph":"f","cat":"ac2g","name":"ac2g","id":100,"pid":0,"tid":7,"ts":20,"bp":"e"},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":13,"ts":31,"dur":4,"args":{"correlation":101,"device":0,"stream":13}},
  {"ph":"X","cat":"kernel","name":"graph_k1","pid":0,"tid":7,"ts":66,"dur":3,"args":{"correlation":102,"device":0,"stream":7}},
  {"ph":"X","cat":"kernel","name":"graph_k2","pid":0,"tid":7,"ts":68,"dur":4,"args":{"correlation":102,"device":0,"stream":7}},
  {"ph":"X","cat":"kernel","name":"orphan","pid":0,"tid":7,"ts":90,"dur":1,"args":{"correlation":999,"device":0,"stream":7}}
]})";

TEST(Hierarchy, NestingDepthAndParents) {
  auto t = loadOk(kTrace);
  ASSERT_TRUE(t);
  const EventRef step = only(*t, "ProfilerStep#7"), linear = only(*t, "aten::linear"), addmm = only(*t, "aten::addmm"),
                 launch = only(*t, "cudaLaunchKernel");
  EXPECT_EQ(t->parent(step), std::nullopt);
  EXPECT_EQ(t->parent(linear), step);
  EXPECT_EQ(t->parent(addmm), linear);
  EXPECT_EQ(t->parent(launch), addmm);
  EXPECT_EQ(t->tracks[launch.track].slices.depth[launch.index], 3);
  EXPECT_EQ(t->tracks[step.track].maxDepth, 4);
  const auto chain = ancestors(*t, launch);
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[0], step);
  EXPECT_EQ(chain[2], addmm);
}

TEST(Hierarchy, LaunchLinksAndGraphLaunches) {
  auto t = loadOk(kTrace);
  ASSERT_TRUE(t);
  EXPECT_EQ(launchOf(*t, only(*t, "gemm")), only(*t, "cudaLaunchKernel"));
  EXPECT_EQ(launchOf(*t, only(*t, "Memcpy HtoD")), only(*t, "cudaMemcpyAsync"));
  EXPECT_EQ(launchOf(*t, only(*t, "orphan")), std::nullopt);
  EXPECT_EQ(t->links.unlinkedGpuEvents, 1u);
  const auto graph = gpuEventsOfLaunch(*t, only(*t, "cudaGraphLaunch"));
  ASSERT_EQ(graph.size(), 2u);
  EXPECT_EQ(t->name(graph[0]), "graph_k1");
  EXPECT_EQ(t->name(graph[1]), "graph_k2");
}

TEST(Hierarchy, OpToAllItsGpuEventsIncludingChildren) {
  auto t = loadOk(kTrace);
  ASSERT_TRUE(t);
  auto names = [&](const std::vector<EventRef>& v) {
    std::vector<std::string> out;
    for (EventRef r : v) out.emplace_back(t->name(r));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(names(gpuEventsOf(*t, only(*t, "aten::linear"))), (std::vector<std::string>{"Memcpy HtoD", "gemm"}));
  EXPECT_EQ(names(gpuEventsOf(*t, only(*t, "aten::relu"))), (std::vector<std::string>{"graph_k1", "graph_k2"}));
  EXPECT_EQ(names(gpuEventsOf(*t, only(*t, "ProfilerStep#7"))).size(), 4u);
  EXPECT_EQ(enclosingOp(*t, only(*t, "cudaMemcpyAsync")), only(*t, "aten::addmm"));
  const auto kids = childrenOf(*t, only(*t, "aten::addmm"));
  ASSERT_EQ(kids.size(), 2u);
  EXPECT_EQ(t->name(kids[0]), "cudaLaunchKernel");
}

// gpuEventsOf is launchesOf's launches' events in order, and causesGpuWork and
// hasGpuEvents say whether those lists are empty (predict asks them of every op without
// building the lists): checked on every slice of every real trace in tests/data. The
// launch-order walk gives gpuEventsOfLaunch's lists asked in order, and asked out of
// order (the tracks backwards, their rows backwards, each row twice).
void expectGpuQueriesAgree(const Trace& t, const std::string& what, size_t& withWork, size_t& without) {
  GpuEventsInLaunchOrder inOrder(t), backwards(t);
  for (uint32_t track = t.tracks.size(); track-- > 0;)
    for (uint32_t i = t.tracks[track].slices.size(); i-- > 0;)
      for (int twice = 0; twice < 2; ++twice)
        ASSERT_EQ(backwards.of({track, i}), gpuEventsOfLaunch(t, {track, i}))
            << what << " track " << track << " row " << i;
  for (uint32_t track = 0; track < t.tracks.size(); ++track)
    for (uint32_t i = 0; i < t.tracks[track].slices.size(); ++i) {
      const EventRef e{track, i};
      ASSERT_EQ(inOrder.of(e), gpuEventsOfLaunch(t, e)) << what << " track " << track << " row " << i;
      std::vector<EventRef> listed;
      for (EventRef l : launchesOf(t, e)) {
        const std::vector<EventRef> g = gpuEventsOfLaunch(t, l);
        listed.insert(listed.end(), g.begin(), g.end());
      }
      const std::vector<EventRef> gpu = gpuEventsOf(t, e);
      ASSERT_EQ(gpu, listed) << what << " track " << track << " row " << i;
      ASSERT_EQ(causesGpuWork(t, e), !gpu.empty()) << what << " track " << track << " row " << i;
      ASSERT_EQ(hasGpuEvents(t, e), !gpuEventsOfLaunch(t, e).empty()) << what << " track " << track << " row " << i;
      ++(gpu.empty() ? without : withWork);
    }
}

TEST(Hierarchy, GpuWorkQueriesAgreeWithTheListsOnRealTraces) {
  size_t withWork = 0, without = 0;
  auto t = loadOk(kTrace);
  ASSERT_TRUE(t);
  expectGpuQueriesAgree(*t, "inline", withWork, without);
  EXPECT_TRUE(causesGpuWork(*t, only(*t, "aten::relu")));  // through a graph launch
  EXPECT_FALSE(causesGpuWork(*t, only(*t, "autograd::engine::evaluate_function: ReluBackward0")));
  EXPECT_TRUE(hasGpuEvents(*t, only(*t, "cudaGraphLaunch")));
  EXPECT_FALSE(hasGpuEvents(*t, only(*t, "aten::linear")));  // an op is no launch
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(OPSCOPE_SOURCE_DIR "/tests/data"))
    if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  size_t loaded = 0;
  for (const fs::path& f : files) {
    LoadResult r = loadTraceFile(f.string());
    if (r.status != LoadStatus::Ok) continue;  // side files: peaks, microbenchmarks
    ++loaded;
    expectGpuQueriesAgree(*r.trace, f.string(), withWork, without);
  }
  EXPECT_GE(loaded, 30u);
  EXPECT_GT(withWork, 10000u);
  EXPECT_GT(without, 10000u);
}

TEST(Hierarchy, FlowsBindToEnclosingSlices) {
  auto t = loadOk(kTrace);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->flows.size(), 2u);
  int ac2g = 0, fwdbwd = 0;
  for (const Flow& f : t->flows) {
    if (t->str(f.cat) == "ac2g") {
      ++ac2g;
      EXPECT_EQ(EventRef::unpack(f.from), only(*t, "cudaLaunchKernel"));
      EXPECT_EQ(EventRef::unpack(f.to), only(*t, "gemm"));
    } else {
      ++fwdbwd;
      EXPECT_EQ(EventRef::unpack(f.from), only(*t, "aten::relu"));
      EXPECT_EQ(EventRef::unpack(f.to), only(*t, "autograd::engine::evaluate_function: ReluBackward0"));
    }
  }
  EXPECT_EQ(ac2g, 1);
  EXPECT_EQ(fwdbwd, 1);
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingFlow), 0u);
}

TEST(Hierarchy, FlowEndWithoutBindingPointGoesToNextSlice) {
  auto t = loadOk(R"([
    {"ph":"X","name":"src","pid":1,"tid":1,"ts":0,"dur":5},
    {"ph":"s","cat":"c","name":"n","id":"x","pid":1,"tid":1,"ts":1},
    {"ph":"f","cat":"c","name":"n","id":"x","pid":1,"tid":2,"ts":9},
    {"ph":"X","name":"dst","pid":1,"tid":2,"ts":10,"dur":5},
    {"ph":"f","cat":"c","name":"n","id":"nostart","pid":1,"tid":2,"ts":10,"bp":"e"}])");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->flows.size(), 1u);
  EXPECT_EQ(EventRef::unpack(t->flows[0].to), only(*t, "dst"));
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingFlow), 1u);
}

TEST(Hierarchy, CrossoverIsKeptCountedAndNotAParent) {
  auto t = loadOk(R"([
    {"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"cross","pid":1,"tid":1,"ts":5,"dur":10},
    {"ph":"X","name":"after","pid":1,"tid":1,"ts":11,"dur":2}])");
  ASSERT_TRUE(t);
  const EventRef a = only(*t, "A"), cross = only(*t, "cross"), after = only(*t, "after");
  EXPECT_EQ(t->diagnostics.count(WarningKind::Crossover), 1u);
  EXPECT_TRUE(t->tracks[cross.track].slices.flags[cross.index] & kFlagCrossover);
  EXPECT_EQ(t->parent(cross), a);
  EXPECT_EQ(t->parent(after), std::nullopt) << "a crossover never becomes a parent";
  EXPECT_EQ(t->tracks[a.track].crossovers, 1u);
}

TEST(Hierarchy, GpuOverlapsGoToSubLanes) {
  SliceColumns s;
  // [0,10) [5,8) [9,12) [12,13): lanes 0 1 1 0.
  const TimeNs starts[] = {0, 5, 9, 12}, durs[] = {10, 3, 3, 1};
  for (int i = 0; i < 4; ++i) {
    s.start.push_back(starts[i]);
    s.dur.push_back(durs[i]);
  }
  uint16_t lanes = 0;
  assignLanes(s, lanes);
  EXPECT_EQ(lanes, 2);
  EXPECT_EQ(s.depth, (PodColumn<uint16_t>{0, 1, 1, 0}));
}

TEST(Hierarchy, NestingIsSiblingAtExactEnd) {
  SliceColumns s;
  const TimeNs starts[] = {0, 0, 4, 10}, durs[] = {10, 4, 6, 5};
  for (int i = 0; i < 4; ++i) {
    s.start.push_back(starts[i]);
    s.dur.push_back(durs[i]);
    s.flags.push_back(0);
  }
  uint16_t depth = 0;
  EXPECT_EQ(nestByContainment(s, depth), 0u);
  EXPECT_EQ(s.parent, (PodColumn<int32_t>{-1, 0, 0, -1}));
  EXPECT_EQ(depth, 2);
}

TEST(Iterations, ProfilerStepNamesOnly) {
  EXPECT_EQ(profilerStepNumber("ProfilerStep#12"), 12);
  EXPECT_EQ(profilerStepNumber("ProfilerStep#"), std::nullopt);
  EXPECT_EQ(profilerStepNumber("ProfilerStep#1a"), std::nullopt);
  EXPECT_EQ(profilerStepNumber("xProfilerStep#1"), std::nullopt);
}

TEST(Iterations, GpuCopiesOfStepsAreNotIterations) {
  auto t = loadOk(R"([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":10,"dur":20},
    {"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#1","pid":0,"tid":7,"ts":2,"dur":10}])");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->iterations.size(), 2u);
  EXPECT_EQ(t->iterations[0].number, 1);
  EXPECT_EQ(t->iterations[1].end, 30000);
  auto w = iterationWindow(t->iterations, 1, 5);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->start, 10000);
  EXPECT_EQ(w->end, 30000);
  EXPECT_FALSE(iterationWindow(t->iterations, 2, 1));
}

TEST(Iterations, MarkerFallback) {
  // The seeds' "## forward ##" module markers delimit iterations when there is no ProfilerStep.
  auto t = loadOk(R"([
    {"ph":"X","cat":"Operator","name":"## forward ##","pid":1,"tid":1,"ts":0,"dur":5},
    {"ph":"X","cat":"Operator","name":"aten::mm","pid":1,"tid":1,"ts":6,"dur":3},
    {"ph":"X","cat":"Operator","name":"## forward ##","pid":1,"tid":1,"ts":10,"dur":5},
    {"ph":"X","cat":"Operator","name":"aten::mm","pid":1,"tid":1,"ts":16,"dur":8}])");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->iterations.empty());
  auto its = findMarkerIterations(*t, "## forward ##");
  ASSERT_EQ(its.size(), 2u);
  EXPECT_EQ(its[0].start, 0);
  EXPECT_EQ(its[0].end, 10000);
  EXPECT_EQ(its[1].end, 24000);
  EXPECT_EQ(findMarkerIterations(*t, "forward").size(), 2u) << "substring match when nothing is exact";
  EXPECT_TRUE(findMarkerIterations(*t, "DataLoader").empty());
}

}  // namespace
}  // namespace opscope
