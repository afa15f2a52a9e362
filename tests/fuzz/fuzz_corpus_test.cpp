// Replays every seed (tests/fuzz/corpus/<target>/) and every fuzzer finding kept as a
// regression fixture (tests/fuzz/regressions/<target>/) through the fuzz targets'
// entry points, in every build of the test suite (Release, ASan/UBSan), so no fixed
// finding comes back. Each file is its own test case, named by target and file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "fuzz_entries.h"
#include "io/trace_loader.h"

namespace opscope {
namespace {

namespace fs = std::filesystem;

const std::map<std::string, std::function<void(std::string_view)>>& entries() {
  static const std::map<std::string, std::function<void(std::string_view)>> m = {
      {"trace_file", fuzz::traceFile},
      {"execution_trace", fuzz::executionTrace},
      {"dvdt", fuzz::dvdt},
      {"plaidml", fuzz::plaidml},
      {"nsys_sqlite", fuzz::nsysSqlite},
      {"link", fuzz::link},
      {"microbench", fuzz::microbench},
      {"gpu_file", fuzz::gpuFile},
      {"kernel_classes", fuzz::kernelClasses},
      {"overheads_file", fuzz::overheadsFile},
      {"rocprofv3", fuzz::rocprofv3},
      {"xplane", fuzz::xplane},
      {"chakra_et", fuzz::chakraEt},
      {"rank_table", fuzz::rankTable}};
  return m;
}

struct Case {
  std::string target, path;
};
// The input's path, not the struct's bytes (gtest's default print read the strings'
// unused inline storage: uninitialised to valgrind).
void PrintTo(const Case& c, std::ostream* os) { *os << c.target << ": " << c.path; }

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* kind : {"corpus", "regressions"}) {
    const fs::path root = fs::path(OPSCOPE_SOURCE_DIR) / "tests/fuzz" / kind;
    if (!fs::exists(root)) continue;
    for (const auto& dir : fs::directory_iterator(root)) {
      if (!dir.is_directory() || !entries().count(dir.path().filename().string())) continue;
      for (const auto& f : fs::directory_iterator(dir.path()))
        if (f.is_regular_file()) out.push_back({dir.path().filename().string(), f.path().string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.path < b.path; });
  return out;
}

class FuzzReplay : public ::testing::TestWithParam<Case> {};

TEST_P(FuzzReplay, RunsCleanly) {
  std::ifstream in(GetParam().path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  entries().at(GetParam().target)(bytes.str());  // a crash, a sanitizer report or a hang fails the test
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.target + "_" +
                     fs::path(info.param.path).parent_path().parent_path().filename().string() + "_" +
                     fs::path(info.param.path).filename().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzReplay, ::testing::ValuesIn(cases()), caseName);

TEST(FuzzReplay, EveryTargetHasSeeds) {
  std::map<std::string, int> seeds;
  for (const Case& c : cases()) ++seeds[c.target];
  for (const auto& [target, run] : entries()) EXPECT_GT(seeds[target], 0) << target;
}

// Seeds of a loader are traces it reads, so the fuzzer starts inside the format rather
// than on its refusal path (the 2017-layout PlaidML seeds named activities by short
// strings where the layout has 16-byte UUIDs, and every one was refused). Every seed of
// the trace_file and plaidml targets loads.
TEST(FuzzSeeds, EveryTraceSeedLoads) {
  size_t checked = 0;
  for (const char* target : {"trace_file", "plaidml", "dvdt", "nsys_sqlite", "rocprofv3", "xplane"}) {
    const fs::path dir = fs::path(OPSCOPE_SOURCE_DIR) / "tests/fuzz/corpus" / target;
    if (!fs::exists(dir)) continue;
    for (const auto& f : fs::directory_iterator(dir)) {
      const LoadResult r = loadTraceFile(f.path().string());
      EXPECT_EQ(r.status, LoadStatus::Ok) << f.path() << ": " << r.error;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10u);
}

}  // namespace
}  // namespace opscope
