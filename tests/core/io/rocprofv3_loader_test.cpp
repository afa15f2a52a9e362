// rocprofv3's JSON result: the real one in ../shared/traces (a PyTorch training run on an
// MI350X, from AMD-AGI/TraceLens' tests; skipped when absent), with figures computed from
// the raw JSON by an independent Python reading (json module: kernel dispatches per queue,
// the union of their intervals, the top kernel's count and total); a small document in
// rocprofiler-sdk's layout for what that file lacks (HIP API records, copies, markers).
#include "io/rocprofv3_loader.h"

#include <gtest/gtest.h>

#include <map>

#include "analysis/summary.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

TEST(Rocprofv3, RealResultKernelsPerQueueAsAnIndependentCountGives) {
  const auto path = test::sharedTrace("rocprofv3_908_results.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces/rocprofv3_908_results.json.gz not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.format, "rocprofv3-json");
  ASSERT_EQ(t.meta.devices.size(), 8u);  // the node's eight GPU agents; the run used GPU 0
  for (const DeviceProperties& d : t.meta.devices) EXPECT_EQ(d.name, "AMD Instinct MI350X");
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 43915u);
  const std::map<int64_t, std::pair<uint64_t, TimeNs>> queues = {{16, {311, 129114885}},
                                                                 {17, {500, 6149264}},
                                                                 {18, {38761, 238328513}},
                                                                 {19, {3034, 36877797}},
                                                                 {20, {1309, 4031075598}}};
  ASSERT_EQ(s.streams.size(), queues.size());
  for (const auto& st : s.streams) {
    const auto it = queues.find(st.tid.num);
    ASSERT_NE(it, queues.end()) << st.label;
    EXPECT_EQ(st.events, it->second.first) << st.label;
    EXPECT_EQ(st.busy, it->second.second) << st.label;
  }
  ASSERT_FALSE(s.topKernels.empty());
  EXPECT_EQ(s.topKernels[0].name, "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)");
  EXPECT_EQ(s.topKernels[0].count, 1310u);
  EXPECT_EQ(s.topKernels[0].total, 4158756678);
  EXPECT_EQ(t.diagnostics.total(), 0u);
}

const char* kSmall = R"J({"rocprofiler-sdk-tool": [{
  "metadata": {"pid": 77},
  "agents": [{"id": {"handle": 1}, "type": 1, "name": "cpu"},
             {"id": {"handle": 2}, "type": 2, "name": "gfx942", "product_name": "AMD Instinct MI300X",
              "logical_node_type_id": 0, "cu_count": 304, "wave_front_size": 64}],
  "strings": {"buffer_records": [{"kind": "NONE", "operations": []},
                                 {"kind": "HIP_RUNTIME_API", "operations": ["hipMalloc", "hipLaunchKernel", "hipMemcpyAsync"]},
                                 {"kind": "MEMORY_COPY", "operations": ["MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_DEVICE"]},
                                 {"kind": "MARKER_CORE_API", "operations": ["roctxRangePush"]}]},
  "kernel_symbols": [{"kernel_id": 5, "kernel_name": "k.kd", "formatted_kernel_name": "my_kernel(int)"}],
  "buffer_records": {
    "hip_api": [{"kind": 1, "operation": 1, "thread_id": 78, "correlation_id": {"internal": 10}, "start_timestamp": 1000, "end_timestamp": 1500},
                {"kind": 1, "operation": 2, "thread_id": 78, "correlation_id": {"internal": 11}, "start_timestamp": 2000, "end_timestamp": 2600}],
    "kernel_dispatch": [{"thread_id": 78, "correlation_id": {"internal": 10}, "start_timestamp": 3000, "end_timestamp": 8000,
                         "dispatch_info": {"agent_id": {"handle": 2}, "queue_id": {"handle": 4}, "kernel_id": 5,
                                           "group_segment_size": 1024, "private_segment_size": 0,
                                           "workgroup_size": {"x": 256, "y": 1, "z": 1}, "grid_size": {"x": 4096, "y": 1, "z": 1}}}],
    "memory_copy": [{"kind": 2, "operation": 1, "correlation_id": {"internal": 11}, "start_timestamp": 9000, "end_timestamp": 9500,
                     "dst_agent_id": {"handle": 2}, "src_agent_id": {"handle": 1}, "bytes": 4096}],
    "marker_api": [{"kind": 3, "operation": 0, "thread_id": 78, "correlation_id": {"internal": 12}, "start_timestamp": 500, "end_timestamp": 9900}]
  }}]})J";

TEST(Rocprofv3, HipCallsLinkToTheirDispatchesAndCopies) {
  const LoadResult r = loadTraceBytes(kSmall);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.memcpys, 1u);
  EXPECT_EQ(s.launches, 2u);
  EXPECT_EQ(s.linkedGpuEvents, 2u);
  const EventRef k = test::only(t, "my_kernel(int)");
  EXPECT_EQ(t.start(k), 3000);
  EXPECT_EQ(t.dur(k), 5000);
  bool grid = false;
  for (const NamedArg& a : t.args(k)) grid = grid || (a.key == "grid" && a.text == "[4096, 1, 1]");
  EXPECT_TRUE(grid);
  EXPECT_EQ(t.dur(test::only(t, "Memcpy HtoD")), 500);
  EXPECT_EQ(test::slicesNamed(t, "hipLaunchKernel").size(), 1u);
  EXPECT_EQ(test::slicesNamed(t, "roctxRangePush").size(), 1u);
  ASSERT_EQ(t.meta.devices.size(), 1u);
  EXPECT_EQ(t.meta.devices[0].name, "AMD Instinct MI300X");
}

TEST(Rocprofv3, BrokenResultsAreOneLineErrors) {
  for (const char* bad : {R"({"rocprofiler-sdk-tool": [{"agents": [)", R"({"rocprofiler-sdk-tool": {}})",
                          R"({"rocprofiler-sdk-tool": []})"}) {
    const LoadResult r = loadTraceBytes(bad);
    EXPECT_EQ(r.status, LoadStatus::InvalidInput) << bad;
    EXPECT_EQ(r.error.rfind("rocprofv3 result: ", 0), 0u) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace opscope
