// Properties on traces written by ../shared/tools/gen_kineto_trace.py (when present):
// every kernel linked, nesting consistent, busy <= wall, summary equals the reference.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "report/summary_report.h"
#include "test_support.h"

namespace opscope {
namespace {

class GeneratedTrace : public ::testing::TestWithParam<int> {};

TEST_P(GeneratedTrace, PropertiesHold) {
  const std::string tool = test::sharedTool("gen_kineto_trace.py");
  if (!std::filesystem::exists(tool)) {
    GTEST_SKIP() << tool << " not present";
  }
  const int seed = GetParam();
  const std::string out = test::tempPath("gen_" + std::to_string(seed) + ".json");
  const std::string cmd = "python3 " + tool + " --out " + out + " --mb 2 --seed " + std::to_string(seed) +
                          (seed % 2 ? " --gzip" : "") + " > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string path = seed % 2 ? out + ".gz" : out;
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;

  // Every GPU event is linked to a launch that starts before it.
  const Summary s = summarize(t);
  EXPECT_GT(s.gpuEvents, 100u);
  EXPECT_EQ(s.linkedGpuEvents, s.gpuEvents);
  for (const auto& [gpu, launch] : t.links.gpuToLaunch)
    EXPECT_LE(t.start(EventRef::unpack(launch)), t.start(EventRef::unpack(gpu)));

  // Nesting: children lie inside their parents, depth = parent depth + 1, no crossovers.
  EXPECT_EQ(t.diagnostics.count(WarningKind::Crossover), 0u);
  for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
    const SliceColumns& c = t.tracks[ti].slices;
    for (uint32_t i = 0; i < c.size(); ++i) {
      if (i) {
        ASSERT_LE(c.start[i - 1], c.start[i]);
      }
      if (c.parent[i] < 0) continue;
      const auto p = static_cast<uint32_t>(c.parent[i]);
      ASSERT_LT(p, i);
      ASSERT_LE(c.start[p], c.start[i]);
      ASSERT_LE(c.end(i), c.end(p));
      ASSERT_EQ(c.depth[i], c.depth[p] + 1);
    }
  }
  // Busy <= wall per stream; the generator never overlaps kernels on a stream.
  for (const auto& st : s.streams) EXPECT_LE(st.busy, s.wall);
  EXPECT_GE(s.iterations.size(), 1u);

  // The summary equals the independent reference implementation.
  const std::string ref = test::tempPath("ref_" + std::to_string(seed) + ".json");
  const std::string refCmd = "python3 " OPSCOPE_SOURCE_DIR "/tests/tools/reference_summary.py " + path + " > " + ref;
  ASSERT_EQ(std::system(refCmd.c_str()), 0);
  const auto expected = nlohmann::json::parse(test::readFile(ref));
  const auto actual = nlohmann::json::parse(summaryJson(s, path));
  for (const char* key : {"kernels", "gpu_events", "linked_gpu_events", "iterations", "top_kernels", "top_ops"})
    EXPECT_EQ(actual[key], expected[key]) << key;
  EXPECT_NEAR(actual["iteration_us_mean"].get<double>(), expected["iteration_us_mean"].get<double>(), 1e-6);
  ASSERT_EQ(actual["streams"].size(), expected["streams"].size());
  for (size_t i = 0; i < expected["streams"].size(); ++i)
    for (const char* key : {"pid", "tid", "events", "busy_us"})
      EXPECT_EQ(actual["streams"][i][key], expected["streams"][i][key]) << key;
  std::filesystem::remove(path);
  std::filesystem::remove(ref);
}

INSTANTIATE_TEST_SUITE_P(Seeds, GeneratedTrace, ::testing::Values(1, 2, 3));

}  // namespace
}  // namespace opscope
