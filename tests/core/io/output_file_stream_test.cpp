// writeOutputFileWith: an output handed over in pieces is written whole, or not at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/output_file.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t filesIn(const std::filesystem::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputFileStream, PiecesOfEverySizeArriveInOrder) {
  const std::filesystem::path dir = test::tempPath("stream_out_dir");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.json").string();
  std::string expected;
  std::string error;
  const auto status = writeOutputFileWith(
      path,
      [&](const TextSink& put) {
        for (int i = 0; i < 50000; ++i) {  // small pieces across several 1 MiB writes
          const std::string piece = std::to_string(i) + ",";
          expected += piece;
          put(piece);
        }
        const std::string big((size_t{3} << 20) / 2, 'x');  // one piece above the chunk
        expected += big;
        put(big);
        expected += "end";
        put("end");
      },
      error);
  ASSERT_EQ(status, WriteStatus::Ok) << error;
  EXPECT_EQ(readAll(path), expected);
  EXPECT_EQ(filesIn(dir), 1u);  // no temporary left
  std::filesystem::remove_all(dir);
}

TEST(OutputFileStream, AProducerThatFailsLeavesTheFileAsItWas) {
  const std::filesystem::path dir = test::tempPath("stream_fail_dir");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.json").string();
  std::ofstream(path) << "the old content";
  std::string error;
  EXPECT_THROW(writeOutputFileWith(
                   path,
                   [&](const TextSink& put) {
                     put(std::string(size_t{2} << 20, 'n'));  // already on disk in the temporary
                     throw std::runtime_error("line 7: the table changed since it was read");
                   },
                   error),
               std::runtime_error);
  EXPECT_EQ(readAll(path), "the old content");
  EXPECT_EQ(filesIn(dir), 1u);  // the temporary removed
  // Through a second hard link, the file itself is rewritten (its inode kept), from the
  // temporary the pieces went to.
  const std::string other = (dir / "other.json").string();
  std::filesystem::create_hard_link(path, other);
  ASSERT_EQ(writeOutputFileWith(
                path, [](const TextSink& put) { put(std::string(size_t{3} << 20, 'h') + "tail"); }, error),
            WriteStatus::Ok)
      << error;
  EXPECT_EQ(readAll(other), std::string(size_t{3} << 20, 'h') + "tail");
  EXPECT_EQ(filesIn(dir), 2u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace opscope
