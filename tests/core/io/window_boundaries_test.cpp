// Inputs larger than the loader's window: events straddling window ends, a unit larger
// than the carry-over headroom, and a cut in the middle, read through the double-
// buffered path (uncompressed) and the inflating thread (gzip) must give the same trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string bigTrace() {
  std::string json = "{\"traceEvents\":[\n";
  for (int i = 0; i < 60000; ++i) {
    if (i) json += ",\n";
    json += R"({"ph":"X","cat":"cpu_op","name":"aten::op_)" + std::to_string(i % 97) + R"(","pid":1,"tid":)" +
            std::to_string(1 + i % 3) + R"(,"ts":)" + std::to_string(i * 10) +
            R"(.5,"dur":7.25,"args":{"External id":)" + std::to_string(i) + R"(,"Input Dims":[[)" +
            std::to_string(i % 1000) + R"(,128],[128]],"pad":")" +
            std::string(static_cast<size_t>(100 + (i * 37) % 200), 'x') + "\"}}";
    if (i == 30000) {
      // One event of 3 MiB: larger than the carry-over headroom wherever it falls.
      json += R"(,{"ph":"X","cat":"cpu_op","name":"huge","pid":1,"tid":9,"ts":1,"dur":1,"args":{"blob":")" +
              std::string(3u << 20, 'y') + "\"}}";
    }
  }
  return json + "\n]}";
}

void expectSameTrace(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.eventsRead, b.eventsRead);
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (uint32_t t = 0; t < a.tracks.size(); ++t) {
    const SliceColumns& x = a.slices(t);
    const SliceColumns& y = b.slices(t);
    ASSERT_EQ(x.size(), y.size());
    for (uint32_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(x.start[i], y.start[i]);
      ASSERT_EQ(x.dur[i], y.dur[i]);
      ASSERT_EQ(a.str(x.name[i]), b.str(y.name[i]));
      ASSERT_EQ(x.externalId[i], y.externalId[i]);
    }
  }
  EXPECT_EQ(a.diagnostics.oneLine(), b.diagnostics.oneLine());
}

TEST(WindowBoundaries, PlainAndGzipReadTheSameLargeTrace) {
  const std::string json = bigTrace();
  ASSERT_GT(json.size(), 20u << 20);
  const std::string path = test::tempPath("big_window.json");
  std::ofstream(path, std::ios::binary) << json;
  LoadResult plain = loadTraceFile(path);
  LoadResult gz = loadTraceBytes(test::gzip(json));
  LoadResult memory = loadTraceBytes(json);
  ASSERT_EQ(plain.status, LoadStatus::Ok) << plain.error;
  ASSERT_EQ(gz.status, LoadStatus::Ok) << gz.error;
  ASSERT_EQ(memory.status, LoadStatus::Ok) << memory.error;
  expectSameTrace(*plain.trace, *gz.trace);
  expectSameTrace(*memory.trace, *gz.trace);
  EXPECT_EQ(plain.trace->eventsRead, 60001u);
  EXPECT_EQ(plain.trace->jsonBytes, json.size());
  // The huge event's args read back whole from the file.
  const EventRef huge = test::only(*plain.trace, "huge");
  const auto args = plain.trace->args(huge);
  ASSERT_EQ(args.size(), 1u);
  EXPECT_EQ(args[0].text.size(), 3u << 20);
  std::remove(path.c_str());
}

TEST(WindowBoundaries, ACutInALaterWindowKeepsWhatCameBefore) {
  std::string json = bigTrace();
  json.resize((11u << 20) + 17);  // inside some event of a later window
  const std::string path = test::tempPath("big_cut.json");
  std::ofstream(path, std::ios::binary) << json;
  LoadResult plain = loadTraceFile(path);
  LoadResult gz = loadTraceBytes(test::gzip(json));
  ASSERT_EQ(plain.status, LoadStatus::Ok) << plain.error;
  ASSERT_EQ(gz.status, LoadStatus::Ok) << gz.error;
  EXPECT_EQ(plain.trace->diagnostics.count(WarningKind::Truncated), 1u);
  expectSameTrace(*plain.trace, *gz.trace);
  EXPECT_GT(plain.trace->eventsRead, 20000u);
  std::remove(path.c_str());
}

// An error in a late window names its line and column as counted over the whole input
// (the prefetching path counts a window's newlines on its read-ahead thread, the gzip
// path as the window leaves): both agree with a count made here, in the third window
// (double-buffered) and after the 3 MiB event (one growing window from there on).
TEST(WindowBoundaries, AnErrorInALateWindowNamesItsLine) {
  // Newlines inside events too, so that the unfinished event a window keeps holds some.
  std::string clean;
  {
    const std::string one = bigTrace();
    clean.reserve(one.size() + one.size() / 64);
    size_t from = 0;
    for (size_t p = one.find(",\"args\""); p != std::string::npos; from = p + 1, p = one.find(",\"args\"", from))
      clean.append(one, from, p + 1 - from).append("\n");
    clean.append(one, from, std::string::npos);
  }
  const size_t huge = clean.find("\"huge\"");
  ASSERT_GT(huge, 9u << 20);
  for (const size_t from : {size_t{9} << 20, huge + (4u << 20)}) {
    std::string json = clean;
    const size_t at = json.find("\"dur\"", from);
    ASSERT_NE(at, std::string::npos);
    json.replace(at, 6, "\"dur\"::");
    const size_t bad = json.find("::", at) + 1;  // the second ':' is the error
    const auto where = [&](const std::string& gzipWords) {
      return "byte " + std::to_string(bad) + gzipWords + " (line " +
             std::to_string(1 + std::count(json.begin(), json.begin() + static_cast<std::ptrdiff_t>(bad), '\n')) +
             ", column " + std::to_string(bad - json.rfind('\n', bad)) + ")";
    };
    const std::string path = test::tempPath("big_error.json");
    std::ofstream(path, std::ios::binary) << json;
    LoadResult plain = loadTraceFile(path);
    LoadResult gz = loadTraceBytes(test::gzip(json));
    ASSERT_NE(plain.status, LoadStatus::Ok);
    ASSERT_NE(gz.status, LoadStatus::Ok);
    EXPECT_NE(plain.error.find(where("")), std::string::npos) << plain.error << " / " << where("");
    EXPECT_NE(gz.error.find(where(" of the decompressed stream")), std::string::npos) << gz.error;
    std::remove(path.c_str());
  }
}

TEST(WindowBoundaries, CancelWhileThePrefetchRunsStopsCleanly) {
  const std::string json = bigTrace();
  const std::string path = test::tempPath("big_cancel.json");
  std::ofstream(path, std::ios::binary) << json;
  int calls = 0;
  LoadOptions options;
  options.progress = [&calls](const LoadProgress& p) {
    EXPECT_LE(p.bytesDone, p.bytesTotal);
    return ++calls < 3;  // cancel at the third window
  };
  LoadResult r = loadTraceFile(path, options);
  EXPECT_EQ(r.status, LoadStatus::Cancelled);
  EXPECT_EQ(calls, 3);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace opscope
