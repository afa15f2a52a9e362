#include "io/side_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/overhead_model.h"
#include "perf/gpu_spec.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string writeFile(const std::string& name, const std::string& bytes) {
  const std::string path = test::tempPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(SideInput, ReadsUpToTheCeilingAndNoFurther) {
  // /dev/zero never ends: read to the ceiling, then refused (it grew to 4.1 GB before).
  SideRead zero = readSideInput("/dev/zero", SideInputKind::GpuFile);
  EXPECT_EQ(zero.status, SideReadStatus::Invalid);
  EXPECT_EQ(zero.error, "larger than 1 MiB, the ceiling for a GPU file");
  EXPECT_TRUE(zero.text.empty());
  SideRead big = readSideInput("/dev/zero", SideInputKind::Microbench);
  EXPECT_EQ(big.error, "larger than 16 MiB, the ceiling for a microbenchmark table");
  // Exactly the ceiling is accepted.
  const std::string at = writeFile("at_ceiling.json", std::string(sideInputCeiling(SideInputKind::Overheads), ' '));
  EXPECT_EQ(readSideInput(at, SideInputKind::Overheads).status, SideReadStatus::Ok);
  const std::string over =
      writeFile("over_ceiling.json", std::string(sideInputCeiling(SideInputKind::Overheads) + 1, ' '));
  EXPECT_EQ(readSideInput(over, SideInputKind::Overheads).status, SideReadStatus::Invalid);
}

TEST(SideInput, NamesDirectoriesAndMissingFilesAndDropsAByteOrderMark) {
  const std::string folder = test::tempPath("folder");
  std::filesystem::create_directories(folder);
  SideRead dir = readSideInput(folder, SideInputKind::Microbench);
  EXPECT_EQ(dir.status, SideReadStatus::IoError);
  EXPECT_EQ(dir.error, "is a directory; a microbenchmark table is a file");
  SideRead missing = readSideInput(test::tempPath("no_such_file.csv"), SideInputKind::Microbench);
  EXPECT_EQ(missing.status, SideReadStatus::IoError);
  EXPECT_EQ(missing.error, "cannot open: No such file or directory");
  SideRead bom = readSideInput(writeFile("bom.csv",
                                         "\xEF\xBB\xBF"
                                         "batch_size,M\n"),
                               SideInputKind::Microbench);
  EXPECT_EQ(bom.text, "batch_size,M\n");
}

TEST(SideInput, JsonPastTheCeilingsIsOneLine) {
  std::string error;
  // 10^6 levels crashed the GPU file's deep copy (SIGSEGV).
  EXPECT_FALSE(parseSideJson(std::string(1'000'000, '[') + std::string(1'000'000, ']'), error));
  EXPECT_EQ(error, "not JSON this reader accepts: nested deeper than 256 levels at byte 256");
  // Brackets inside strings do not count.
  EXPECT_TRUE(parseSideJson("{\"a\":\"" + std::string(1000, '[') + "\\\"\"}", error)) << error;
  EXPECT_TRUE(parseSideJson(std::string(256, '[') + std::string(256, ']'), error)) << error;
  // 1e400 escaped as "internal error: [json.exception.out_of_range.406]...".
  EXPECT_FALSE(parseSideJson(R"({"sms": 1e400})", error));
  EXPECT_EQ(error, "not JSON this reader accepts: number overflow parsing '1e400'");
  EXPECT_FALSE(parseSideJson("{\"a\": " + std::string(100'000, '9') + "e999}", error));
  EXPECT_LT(error.size(), 200u);
  EXPECT_FALSE(parseSideJson("{\"a\": tru", error));
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_EQ(error.rfind("not JSON at byte ", 0), 0u) << error;
}

TEST(SideInput, GpuAndOverheadsFilesUseTheCeilings) {
  std::string error;
  EXPECT_FALSE(parseGpuSpecs(std::string(1'000'000, '[') + std::string(1'000'000, ']'), error));
  EXPECT_NE(error.find("nested deeper than 256"), std::string::npos) << error;
  EXPECT_FALSE(parseGpuSpecs(R"({"gpus":[{"name":"x","sms":1e400}]})", error));
  EXPECT_NE(error.find("number overflow"), std::string::npos) << error;
  // A long GPU name is quoted cut.
  EXPECT_FALSE(parseGpuSpecs(R"({"gpus":[{"name":")" + std::string(1 << 20, 'n') + R"("}]})", error));
  EXPECT_LT(error.size(), 200u) << error.size();
  EXPECT_FALSE(parseOverheadModel(std::string(300, '{'), error));
  EXPECT_NE(error.find("overheads JSON: not JSON this reader accepts: nested deeper"), std::string::npos) << error;
  EXPECT_FALSE(parseOverheadModel(R"({"t1": [1e999, 1]})", error));
  EXPECT_EQ(error.find("internal"), std::string::npos) << error;
}

}  // namespace
}  // namespace opscope
