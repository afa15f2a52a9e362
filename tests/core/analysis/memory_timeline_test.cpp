// Device memory from Kineto's "[memory]" events: curves, peak, live allocations and the
// ops that made them, checked against answers known by construction, against what the
// TensorBoard profiler plugin's own test publishes, and on a real ResNet-50 trace.
#include "analysis/memory_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "io/trace_loader.h"
#include "report/memory_report.h"
#include "test_support.h"

namespace opscope {
namespace {

const DeviceMemory* device(const MemoryTimeline& m, const std::string& label) {
  for (const DeviceMemory& d : m.devices)
    if (d.label == label) return &d;
  return nullptr;
}

TEST(MemoryTimeline, CurvesPeakAndLiveAllocationsWithTheirOps) {
  // One op allocating 100 and 50 bytes on GPU 0 (totals recorded), freeing the 100; a
  // second op allocating 30 that stays live; a CPU allocation outside any op.
  const auto t = test::loadOk(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 20, "dur": 5},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": 100, "Total Allocated": 1100, "Total Reserved": 2000}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 5, "args": {"Device Type": 1, "Device Id": 0, "Addr": 8192, "Bytes": 50, "Total Allocated": 1150, "Total Reserved": 2000}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 8, "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": -100, "Total Allocated": 1050, "Total Reserved": 2000}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 21, "args": {"Device Type": 1, "Device Id": 0, "Addr": 12288, "Bytes": 30, "Total Allocated": 1080, "Total Reserved": 4000}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 15, "args": {"Device Type": 0, "Device Id": -1, "Addr": 77, "Bytes": 8}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 16, "args": {"Device Type": 1}}
  ]})");
  // The events are not instant markers; the one without Bytes is a counted warning.
  EXPECT_TRUE(t->instants.empty());
  EXPECT_EQ(t->memoryEvents.size(), 5u);
  const MemoryTimeline m = memoryTimeline(*t);
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_EQ(m.devices[0].label, "GPU 0");  // GPUs first
  const DeviceMemory& g = m.devices[0];
  EXPECT_FALSE(g.relativeAllocated);
  EXPECT_EQ(g.allocated, (std::vector<int64_t>{1100, 1150, 1050, 1080}));
  EXPECT_EQ(g.peakAllocated, 1150);
  EXPECT_EQ(g.peakTs, 5000);
  EXPECT_EQ(g.peakReserved, 4000);
  EXPECT_EQ(g.allocs, 3u);
  EXPECT_EQ(g.frees, 1u);
  // At the peak both of aten::mm's allocations are live (the 100 made inside aten::empty).
  auto live = liveAllocations(g, g.peakTs);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0]->bytes, 100);
  EXPECT_EQ(t->name(*live[0]->op), "aten::empty");
  EXPECT_EQ(t->name(*live[1]->op), "aten::mm");
  // After the free only the 50 is; at the end the 50 and relu's 30, never freed.
  EXPECT_EQ(liveAllocations(g, 9000).size(), 1u);
  live = liveAllocations(g, 30000);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0]->bytes, 50);
  EXPECT_EQ(t->name(*live[1]->op), "aten::relu");
  // By op: aten::empty made 100 itself; aten::mm 50 itself, 150 in all, 100 of it freed.
  EXPECT_EQ(g.byOp.at("aten::empty").selfAllocBytes, 100);
  EXPECT_EQ(g.byOp.at("aten::mm").selfAllocBytes, 50);
  EXPECT_EQ(g.byOp.at("aten::mm").allocBytes, 150);
  EXPECT_EQ(g.byOp.at("aten::mm").increase, 50);
  // The host: no totals recorded, so the running sum of its events; allocated outside any op.
  const DeviceMemory* cpu = device(m, "CPU");
  ASSERT_TRUE(cpu);
  EXPECT_TRUE(cpu->relativeAllocated);
  EXPECT_EQ(cpu->peakAllocated, 8);
  EXPECT_FALSE(cpu->allocations.at(0).op);

  // Export: the peak and its live allocations; CSV one row per event.
  const auto j = nlohmann::json::parse(memoryJson(m, *t, "f.json"));
  EXPECT_EQ(j["devices"][0]["peak_allocated_bytes"], 1150);
  EXPECT_EQ(j["devices"][0]["peak_us"], 5.0);
  EXPECT_EQ(j["devices"][0]["live_at_peak"][0]["op"], "aten::empty");
  EXPECT_TRUE(j["devices"][1]["peak_reserved_bytes"].is_null());
  EXPECT_EQ(j["devices"][0]["by_op"][0]["name"], "aten::mm");  // 150 bytes allocated inside it
  EXPECT_EQ(j["devices"][0]["by_op"][0]["alloc_bytes"], 150);
  EXPECT_EQ(j["devices"][0]["by_op"][0]["self_alloc_bytes"], 50);
  const std::string csv = memoryCsv(m, *t);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 5);
  EXPECT_NE(csv.find("GPU 0,5,1150,2000\n"), std::string::npos) << csv;

  // Counter tracks for the timeline: allocated and reserved for the GPU, allocated for the host.
  auto mutableTrace = test::loadOk(R"({"traceEvents": [
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 2, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 1048576, "Total Allocated": 1048576, "Total Reserved": 2097152}}]})");
  const size_t before = mutableTrace->counters.size();
  addMemoryCounters(*mutableTrace, memoryTimeline(*mutableTrace));
  ASSERT_EQ(mutableTrace->counters.size(), before + 2);
  EXPECT_EQ(mutableTrace->str(mutableTrace->counters[0].name), "Memory allocated \xC2\xB7 GPU 0 (MiB)");
  EXPECT_EQ(mutableTrace->counters[1].value, std::vector<double>{2.0});
}

// TensorBoard profiler plugin's test_memory_view: its trace, and the per-op figures it
// publishes as [self increase, self allocation size, self allocation count, increase,
// allocation size, allocation count] (the seventh, calls, is not a memory figure).
TEST(MemoryTimeline, TensorBoardPluginMemoryViewFiguresPerOp) {
  const auto t = test::loadOk(test::readFile(OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/memory_view.json"));
  const MemoryTimeline m = memoryTimeline(*t);
  const std::map<std::string, std::vector<int64_t>> gpu = {
      {"aten::to", {104, 104, 2, 104, 204, 3}},      {"aten::nll_loss_backward", {0, 10, 1, 0, 10, 1}},
      {"aten::copy_", {0, 100, 1, 0, 100, 1}},       {"aten::addmm", {0, 30, 1, 0, 30, 1}},
      {"aten::tranas_stride", {0, 50, 1, 0, 50, 1}}, {"aten::transpose", {0, 50, 1, 0, 100, 2}},
      {"aten::t", {0, 100, 1, 0, 200, 3}},           {"aten::liner", {20, 130, 3, 20, 360, 7}}};
  const std::map<std::string, std::vector<int64_t>> cpu = {{"aten::to", {4, 4, 1, 4, 4, 1}},
                                                           {"aten::liner", {0, 100, 1, 50, 150, 2}},
                                                           {"aten::tranas_stride", {50, 50, 1, 50, 50, 1}},
                                                           {"aten::transpose", {0, 0, 0, 50, 50, 1}},
                                                           {"aten::t", {0, 0, 0, 50, 50, 1}}};
  for (const auto& [label, expected] : {std::pair{"GPU 0", gpu}, std::pair{"CPU", cpu}}) {
    const DeviceMemory* d = device(m, label);
    ASSERT_TRUE(d) << label;
    for (const auto& [name, v] : expected) {
      SCOPED_TRACE(std::string(label) + " " + name);
      const auto it = d->byOp.find(name);
      const OpMemory o = it == d->byOp.end() ? OpMemory{} : it->second;
      EXPECT_EQ((std::vector<int64_t>{o.selfIncrease, o.selfAllocBytes, static_cast<int64_t>(o.selfAllocs), o.increase,
                                      o.allocBytes, static_cast<int64_t>(o.allocs)}),
                v);
    }
  }
}

// A real trace (ResNet-50 on a V100, TensorBoard plugin sample): Bytes only. The curve
// and its peak are checked against a running sum computed here from the raw JSON.
TEST(MemoryTimeline, RealResNet50TraceMatchesARunningSumOfItsEvents) {
  const std::string path = OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz";
  const LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const MemoryTimeline m = memoryTimeline(*r.trace);
  const auto raw = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  std::vector<std::pair<double, int64_t>> gpuEvents;
  for (const auto& e : raw["traceEvents"])
    if (e.value("name", "") == "[memory]" && e["args"].value("Device Type", 0) == 1)
      gpuEvents.emplace_back(e["ts"].get<double>(), e["args"]["Bytes"].get<int64_t>());
  std::stable_sort(gpuEvents.begin(), gpuEvents.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  int64_t sum = 0, peak = 0;
  for (const auto& [ts, bytes] : gpuEvents) peak = std::max(peak, sum += bytes);
  const DeviceMemory* g = device(m, "GPU 0");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->ts.size(), gpuEvents.size());
  EXPECT_EQ(g->peakAllocated, peak);
  EXPECT_EQ(g->allocated.back(), sum);
  EXPECT_TRUE(g->relativeAllocated);
  EXPECT_TRUE(g->allocations.empty());            // no addresses recorded
  EXPECT_GT(g->peakAllocated, int64_t{2} << 30);  // a ResNet-50 training step holds GiBs
}

// The same trace's allocations reach the ops that made them: its [memory] instants give
// their thread as a number and its ops as a string ("25738"), one thread to any viewer.
// Expected: the allocations inside CudnnConvolutionBackward spans of the same thread,
// counted from the raw JSON (924 of 21,368,438,784 bytes).
TEST(MemoryTimeline, RealResNet50AllocationsReachTheOpsThatMadeThem) {
  const LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const MemoryTimeline m = memoryTimeline(*r.trace);
  const DeviceMemory* g = device(m, "GPU 0");
  ASSERT_TRUE(g);
  const auto it = g->byOp.find("CudnnConvolutionBackward");
  ASSERT_NE(it, g->byOp.end());
  EXPECT_EQ(it->second.allocs, 924u);
  EXPECT_EQ(it->second.allocBytes, 21368438784);
  EXPECT_EQ(r.trace->diagnostics.count(WarningKind::DanglingFlow), 0u);  // its 9,096 launch flows bind
}

}  // namespace
}  // namespace opscope
