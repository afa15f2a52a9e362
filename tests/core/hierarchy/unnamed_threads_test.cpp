// Threads with no name and an id no OS gave are labelled by what their events are.
#include "hierarchy/unnamed_threads.h"

#include <gtest/gtest.h>

#include <set>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string labelOfTid(const Trace& t, int64_t tid) {
  for (uint32_t i = 0; i < t.tracks.size(); ++i)
    if (!t.tracks[i].tid.isString && t.tracks[i].tid.num == tid) return t.trackLabel(i);
  ADD_FAILURE() << "no track with tid " << tid;
  return {};
}

std::string x(const char* name, int64_t tid, int ts) {
  return R"({"ph":"X","cat":"cuda_runtime","name":")" + std::string(name) + R"(","pid":4515,"tid":)" +
         std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":2})";
}

TEST(UnnamedThreads, APthreadSizedIdIsLabelledByWhatItsEventsAre) {
  std::string json = R"({"traceEvents":[)";
  json += R"J({"ph":"M","name":"thread_name","pid":4515,"tid":4515,"args":{"name":"thread 4515 (python3.8)"}},)J";
  json += R"({"ph":"M","name":"thread_name","pid":4515,"tid":-7,"args":{"name":"named negative"}},)";
  json += x("aten::mm", 4515, 1) + "," + x("cudaEventQuery", -1220540864, 10) + "," +
          x("cudaEventQuery", -1220540864, 20) + "," + x("cudaEventQuery", 228591168, 30) + ",";
  // Three kinds of call, the most frequent first, the rest counted.
  json += x("cudaMemcpyAsync", -5, 40) + "," + x("cudaMemcpyAsync", -5, 50) + "," + x("cudaMemcpyAsync", -5, 60) + "," +
          x("cudaStreamSynchronize", -5, 70) + "," + x("cudaStreamSynchronize", -5, 80) + "," + x("cudaFree", -5, 90) +
          ",";
  // An ordinary unnamed tid and a named negative one keep their labels.
  json += x("aten::add", 123, 100) + "," + x("aten::add", -7, 110) + "]}";
  const auto t = test::loadOk(json);
  ASSERT_TRUE(t);
  EXPECT_EQ(labelOfTid(*t, -1220540864), "thread -1220540864 (unnamed: cudaEventQuery)");
  EXPECT_EQ(labelOfTid(*t, 228591168), "thread 228591168 (unnamed: cudaEventQuery)");
  EXPECT_EQ(labelOfTid(*t, -5), "thread -5 (unnamed: cudaMemcpyAsync, cudaStreamSynchronize and 1 more)");
  EXPECT_EQ(labelOfTid(*t, 123), "thread 123");
  EXPECT_EQ(labelOfTid(*t, -7), "thread -7 (named negative)");
  EXPECT_EQ(labelOfTid(*t, 4515), "thread 4515 (python3.8)");
}

// The recommendation-model trace (PyTorch 1.x, CUPTI's pthread ids): four unnamed
// threads polling cudaEventQuery read apart from the Python threads.
TEST(UnnamedThreads, TheRecsysTracesFourPollingThreadsSayWhatTheyDo) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  const LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  std::set<std::string> labels;
  for (int64_t tid : {-1220540864LL, -1107294656LL, 228591168LL, 1507853888LL}) {
    const std::string label = labelOfTid(*r.trace, tid);
    EXPECT_EQ(label, "thread " + std::to_string(tid) + " (unnamed: cudaEventQuery)");
    labels.insert(label);
  }
  EXPECT_EQ(labels.size(), 4u);
  EXPECT_EQ(labelOfTid(*r.trace, 4515), "thread 4515 (python3.8)");
}

}  // namespace
}  // namespace opscope
