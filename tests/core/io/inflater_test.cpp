// ISA-L's inflate held to zlib's: the same bytes out of real gzip files other tools
// wrote, of concatenated members, of streams cut anywhere, of corrupt data and of
// trailing garbage, whatever the size of each read.
#include "io/inflater.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/byte_source.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

struct Drained {
  std::string bytes;
  bool truncated = false;
  std::string error;
  uint64_t trailingAt = 0;
};

// Every byte a source gives, read `step` bytes at a time.
Drained drain(const std::string& gz, InflateEngine engine, size_t step = 1 << 20) {
  auto src = ByteSource::fromMemory(gz, engine);
  Drained d;
  std::string buf(step, '\0');
  for (size_t n; (n = src->read(buf.data(), step)) > 0;) d.bytes.append(buf.data(), n);
  d.truncated = src->truncated();
  d.error = src->error();
  d.trailingAt = src->trailingAt();
  return d;
}

TEST(Inflater, ThisBuildHasIsal) {
  ASSERT_TRUE(haveIsal());
  EXPECT_STREQ(makeInflater()->name(), "isa-l");
  EXPECT_STREQ(makeInflater(InflateEngine::kZlib)->name(), "zlib");
}

// Files gzip, Python's gzip module and the profilers wrote, not our writer.
TEST(Inflater, RealGzipFilesInflateToZlibsBytes) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(OPSCOPE_SOURCE_DIR "/tests/data"))
    if (e.path().extension() == ".gz") files.push_back(e.path().string());
  for (const char* name : {"recsys_rank0_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz",
                           "plaidml_mobilenet_eventlog.gz", "rocprofv3_908_results.json.gz"})
    if (auto p = test::sharedTrace(name)) files.push_back(*p);
  ASSERT_GE(files.size(), 15u);
  for (const std::string& f : files) {
    const std::string gz = test::readFile(f);
    const Drained z = drain(gz, InflateEngine::kZlib), i = drain(gz, InflateEngine::kIsal);
    ASSERT_TRUE(z.error.empty() && !z.truncated) << f << ": " << z.error;
    EXPECT_TRUE(i.error.empty()) << f << ": " << i.error;
    EXPECT_FALSE(i.truncated) << f;
    EXPECT_GT(i.bytes.size(), gz.size()) << f;
    EXPECT_TRUE(i.bytes == z.bytes) << f << ": " << i.bytes.size() << " vs " << z.bytes.size() << " bytes";
  }
}

std::string text(size_t n, unsigned seed) {
  std::string s;
  while (s.size() < n) s += R"({"ph":"X","name":"aten::mm","ts":)" + std::to_string(seed++ * 7919 % 100003) + "},";
  s.resize(n);
  return s;
}

TEST(Inflater, MembersCutsCorruptionAndGarbageAsZlib) {
  const std::string a = text(300'000, 1), b = text(5'000, 2), c = text(1, 3);
  const std::string members = test::gzip(a) + test::gzip(b) + test::gzip(c);
  for (InflateEngine e : {InflateEngine::kZlib, InflateEngine::kIsal}) {
    SCOPED_TRACE(makeInflater(e)->name());
    for (size_t step : {size_t{1}, size_t{7}, size_t{4096}, size_t{1} << 20}) {
      const Drained d = drain(members, e, step);
      EXPECT_TRUE(d.error.empty()) << d.error;
      EXPECT_FALSE(d.truncated);
      EXPECT_TRUE(d.bytes == a + b + c) << "step " << step << ": " << d.bytes.size();
    }
    // Garbage after the last member: everything before it, no error.
    const Drained g = drain(members + "garbage\n", e);
    EXPECT_TRUE(g.bytes == a + b + c);
    EXPECT_TRUE(g.error.empty()) << g.error;
    EXPECT_EQ(g.trailingAt, members.size());  // and where the garbage starts
    EXPECT_EQ(drain(members, e).trailingAt, 0u);
    // Cut anywhere inside the first member: truncated, a prefix of the whole.
    const std::string first = test::gzip(a);
    for (size_t cut : {size_t{12}, first.size() / 3, first.size() / 2, first.size() - 4, first.size() - 1}) {
      const Drained t = drain(first.substr(0, cut), e);
      EXPECT_TRUE(t.truncated) << "cut " << cut;
      EXPECT_TRUE(t.error.empty()) << "cut " << cut << ": " << t.error;
      EXPECT_EQ(a.compare(0, t.bytes.size(), t.bytes), 0) << "cut " << cut;
    }
    // A flipped byte in the data, or in the CRC: one line naming the compressed byte.
    std::string bad = first;
    bad[bad.size() / 2] ^= 0x55;
    const Drained c1 = drain(bad, e);
    EXPECT_NE(c1.error.find("corrupt gzip data near compressed byte "), std::string::npos) << c1.error;
    std::string crc = first;
    crc[crc.size() - 6] ^= 1;
    const Drained c2 = drain(crc, e);
    EXPECT_NE(c2.error.find("incorrect data check"), std::string::npos) << c2.error;
    EXPECT_EQ(c2.error.find('\n'), std::string::npos);
  }
}

// A loaded gzip trace with bytes after its last member says so in its warnings (the
// JSON ends before them, so the loader reads the stream through); a gzip file cut in
// its header is a cut file, not an empty one.
TEST(Inflater, TrailingGarbageIsAWarningAndACutHeaderIsACutFile) {
  const std::string json = R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]})";
  LoadResult r = loadTraceBytes(test::gzip(json) + "appended by mistake");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_EQ(r.trace->diagnostics.count(WarningKind::TrailingData), 1u);
  const auto entries = r.trace->diagnostics.entries();
  ASSERT_FALSE(entries.empty());
  EXPECT_NE(entries.back().example.find("are not a gzip member: ignored"), std::string::npos);
  r = loadTraceBytes(test::gzip(json));
  ASSERT_EQ(r.status, LoadStatus::Ok);
  EXPECT_EQ(r.trace->diagnostics.count(WarningKind::TrailingData), 0u);
  for (size_t cut : {size_t{2}, size_t{4}, size_t{9}}) {
    r = loadTraceBytes(test::gzip(json).substr(0, cut));
    EXPECT_EQ(r.status, LoadStatus::InvalidInput);
    EXPECT_NE(r.error.find("before any data: the file is cut"), std::string::npos) << cut << ": " << r.error;
  }
}

}  // namespace
}  // namespace opscope
