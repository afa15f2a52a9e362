// Input written to hurt: memory amplification (gzip bombs of whitespace or one huge
// string), numbers beyond double, nesting that would overflow a recursive parser,
// times that overflow int64, SQLite schemas that compute on read, a stream with
// everything overlapping. Each must end in a load with counted warnings or a one-line
// error, with memory bounded by the largest event, never by the file.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <random>

#include "analysis/summary.h"
#include "et/execution_trace.h"
#include "hierarchy/nesting.h"
#include "io/input_limits.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

using test::load;

void expectOneLine(const std::string& s) {
  EXPECT_FALSE(s.empty());
  EXPECT_EQ(s.find('\n'), std::string::npos) << s;
}

const std::string kEvent = R"({"ph":"X","name":"k","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":5})";

// The windows a plain or gzip load holds: a few MiB, whatever the input's size.
constexpr uint64_t kWindowBound = 16u << 20;

TEST(HostileInput, WhitespaceBetweenEventsNeverAccumulates) {
  const std::string spaces(48u << 20, ' ');
  const std::string json = "{\"traceEvents\":[" + spaces + kEvent + spaces + "," + spaces + kEvent + spaces + "]}";
  for (const bool gz : {true, false}) {
    SCOPED_TRACE(gz ? "gzip" : "plain file");
    LoadResult r;
    if (gz) {
      r = loadTraceBytes(test::gzip(json));
    } else {
      const std::string path = test::tempPath("spaces.json");
      FILE* f = std::fopen(path.c_str(), "wb");
      std::fwrite(json.data(), 1, json.size(), f);
      std::fclose(f);
      r = loadTraceFile(path);
      std::remove(path.c_str());
    }
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    EXPECT_EQ(r.trace->sliceCount(), 2u);
    EXPECT_LT(r.peakWindowBytes, kWindowBound);
  }
}

TEST(HostileInput, UnknownTopLevelValuesStreamPastWithoutBeingHeld) {
  // Perfetto-style systemTraceEvents text of 80 MB, then the events.
  const std::string json = "{\"systemTraceEvents\":\"" + std::string(80u << 20, 'x') + "\",\"small\":{\"a\":[1,2]}," +
                           "\"traceEvents\":[" + kEvent + "]}";
  LoadResult r = loadTraceBytes(test::gzip(json));
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_EQ(r.trace->sliceCount(), 1u);
  EXPECT_LT(r.peakWindowBytes, kWindowBound);
  // Small unknown values are kept as metadata, huge ones are not.
  const auto& other = r.trace->meta.other;
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].first, "small");
  EXPECT_EQ(other[0].second, R"({"a":[1,2]})");
  // A skipped value must still be well-formed.
  r = load(R"({"x": [1, 2}, "traceEvents": []})");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("unexpected '}'"), std::string::npos) << r.error;
}

TEST(HostileInput, OneEventBeyondTheCeilingIsOneLine) {
  const std::string json =
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"" + std::string(kMaxJsonValueBytes + 1024, 'x') + "\"}]}";
  LoadResult r = loadTraceBytes(test::gzip(json));
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("the event at byte 16"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("64 MiB, the ceiling for one JSON value"), std::string::npos) << r.error;
  expectOneLine(r.error);
}

TEST(HostileInput, NoCompleteEventBeforeTheCutIsAnError) {
  LoadResult r = load(R"({"traceEvents":[{"ph":"X","name":"xxxxxxxxxxxxxxxx)");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("no complete event before the cut at byte 50"), std::string::npos) << r.error;
  r = loadTraceBytes(test::gzip(R"({"traceEvents":[{"ph":"X","na)").substr(0, 30));
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  expectOneLine(r.error);
  // One complete event is enough to show something (with the truncation warned).
  r = load(R"({"traceEvents":[)" + kEvent + R"(,{"ph":"X","name":"xx)");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_EQ(r.trace->diagnostics.count(WarningKind::Truncated), 1u);
}

TEST(HostileInput, ExecutionTraceNumbersBeyondDoubleAreOneLineErrors) {
  for (const char* number : {"1e400", "6e308", "-1e999"}) {
    SCOPED_TRACE(number);
    const std::string node = std::string(R"({"schema":"1.0.1","nodes":[{"id":1,"name":"a","x":)") + number + "}]}";
    std::string error;
    EXPECT_FALSE(parseExecutionTrace(node, error));
    EXPECT_NE(error.find("byte 50"), std::string::npos) << error;  // the number itself
    EXPECT_NE(error.find("number overflow"), std::string::npos) << error;
    expectOneLine(error);
    const std::string top = std::string(R"({"schema":"1.0.1","x":)") + number + R"(,"nodes":[{"id":1}]})";
    EXPECT_FALSE(parseExecutionTrace(top, error));
    EXPECT_NE(error.find("byte 22"), std::string::npos) << error;  // the value is the number
  }
}

TEST(HostileInput, ExecutionTraceNestingIsLimitedNotAStackOverflow) {
  const int depth = 200000;
  const std::string et = R"({"schema":"1.0.1","nodes":[{"id":1,"name":"a"}],"x":)" + std::string(depth, '[') +
                         std::string(depth, ']') + "}";
  std::string error;
  EXPECT_FALSE(parseExecutionTrace(et, error));
  EXPECT_NE(error.find("nesting deeper than 256 levels"), std::string::npos) << error;
  expectOneLine(error);
  // Inside a node as well.
  const std::string inNode = R"({"schema":"1.0.1","nodes":[{"id":1,"x":)" + std::string(depth, '{') + "}";
  EXPECT_FALSE(parseExecutionTrace(inNode, error));
  EXPECT_NE(error.find("nesting deeper than 256 levels"), std::string::npos) << error;
}

TEST(HostileInput, ExecutionTraceOneHugeStringHitsTheCeiling) {
  const std::string et =
      R"({"schema":"1.0.1","nodes":[{"id":1,"name":")" + std::string(kMaxJsonValueBytes + 1024, 'x') + "\"}]}";
  const std::string path = test::tempPath("huge_et.json.gz");
  {
    const std::string gz = test::gzip(et);
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(gz.data(), 1, gz.size(), f);
    std::fclose(f);
  }
  std::string error;
  EXPECT_FALSE(loadExecutionTrace(path, error));
  EXPECT_NE(error.find("the ceiling for one value"), std::string::npos) << error;
  EXPECT_NE(error.find("of the decompressed stream"), std::string::npos) << error;
  expectOneLine(error);
  std::remove(path.c_str());
}

const char* kDvdtCall =
    R"({"call":"clFinish","timestamp":{"start":"2017-09-19T12:00:00.000001","end":"2017-09-19T12:00:00.000009"}})";

TEST(HostileInput, DvdtNumbersBeyondDoubleAndDeepNestingAreOneLineErrors) {
  LoadResult r = load(std::string("[") + kDvdtCall + R"(, {"call":"clFinish","x":1e400}])");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("number overflow"), std::string::npos) << r.error;
  expectOneLine(r.error);
  r = load(std::string("[") + kDvdtCall + ", {\"call\":\"clFinish\",\"x\":" + std::string(100000, '[') + "}]");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("nesting deeper than 256 levels"), std::string::npos) << r.error;
  // Values the loader does not read are skipped unread, however deep or large.
  r = load(std::string("{\"junk\":") + std::string(300, '[') + std::string(300, ']') + ",\"dvdt_prof\":[" + kDvdtCall +
           "]}");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);  // skipping still refuses nesting past the limit
  r = load(std::string("{\"dvdt_prof\":[") + kDvdtCall + "],\"junk\":\"" + std::string(kMaxJsonValueBytes + 16, 'y') +
           "\"}");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_EQ(r.trace->sliceCount(), 1u);
}

TEST(HostileInput, DvdtTimesPast2262AndHugeProfilingValuesNeverWrap) {
  const std::string records =
      std::string("[") + kDvdtCall +
      R"(, {"call":"clFinish","timestamp":{"start":"2300-01-01T00:00:00","end":"2300-01-01T00:00:01"}},)"
      R"( {"call":"clEnqueueNDRangeKernel","name":"k","queue":"0x1",)"
      R"("timestamp":{"start":"2017-09-19T12:00:00.000010","end":"2017-09-19T12:00:00.000020"},)"
      R"("profiling":{"queued":-9000000000000000000,"submit":1,"start":9000000000000000000,"end":1e300}}])";
  LoadResult r = load(records);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_GE(r.trace->diagnostics.count(WarningKind::WrongType), 1u);  // the 2300 timestamps
  EXPECT_GE(r.trace->maxTs, r.trace->minTs);
  EXPECT_LE(r.trace->maxTs, kMaxTimeNs);
}

TEST(HostileInput, TimesBeyondTheDomainAreClampedAndCounted) {
  LoadResult r = load(R"({"traceEvents":[
    {"ph":"X","name":"far","cat":"cpu_op","pid":1,"tid":1,"ts":9000000000000000,"dur":9000000000000000},
    {"ph":"X","name":"early","cat":"cpu_op","pid":1,"tid":1,"ts":-9000000000000000,"dur":1},
    {"ph":"B","name":"b","pid":1,"tid":2,"ts":-9100000000000000},
    {"ph":"E","pid":1,"tid":2,"ts":9100000000000000},
    {"ph":"i","name":"i","pid":1,"tid":1,"ts":9200000000000000,"s":"g"},
    {"ph":"C","name":"c","pid":1,"ts":-9200000000000000,"args":{"v":1}}
  ]})");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_GE(t.diagnostics.count(WarningKind::TimeOutOfRange), 4u);
  EXPECT_LE(t.maxTs, kMaxTimeNs);
  EXPECT_GE(t.minTs, -kMaxTimeNs);
  for (const Track& tr : t.tracks)
    for (size_t i = 0; i < tr.slices.size(); ++i) {
      EXPECT_GE(tr.slices.dur[i], 0);
      EXPECT_LE(tr.slices.end(i), kMaxTimeNs);
    }
  const Summary s = summarize(t);
  EXPECT_GT(s.wall, 0);  // no wrapped, negative wall time
}

// The former quadratic first-free-lane scan, as the reference the heap must match.
std::vector<uint16_t> referenceLanes(const SliceColumns& s) {
  std::vector<TimeNs> laneEnd;
  std::vector<uint16_t> out;
  for (size_t i = 0; i < s.size(); ++i) {
    size_t lane = 0;
    while (lane < laneEnd.size() && laneEnd[lane] > s.start[i]) ++lane;
    if (lane == laneEnd.size()) laneEnd.push_back(s.end(i));
    laneEnd[lane] = std::max(laneEnd[lane], s.end(i));
    out.push_back(static_cast<uint16_t>(lane));
  }
  return out;
}

TEST(HostileInput, LanesMatchTheFirstFreeLaneOnRandomOverlaps) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    SliceColumns s;
    TimeNs t = 0;
    const int n = 1 + static_cast<int>(rng() % 400);
    for (int i = 0; i < n; ++i) {
      t += static_cast<TimeNs>(rng() % 5);  // sorted by start; many equal starts and ends
      s.start.push_back(t);
      s.dur.push_back(static_cast<TimeNs>(rng() % 30));
    }
    uint16_t lanes = 0;
    assignLanes(s, lanes);
    const auto expected = referenceLanes(s);
    ASSERT_EQ(std::vector<uint16_t>(s.depth.begin(), s.depth.end()), expected) << "round " << round;
    EXPECT_EQ(lanes, *std::max_element(expected.begin(), expected.end()) + 1);
  }
}

TEST(HostileInput, AMillionOverlappingKernelsShareTheLastLane) {
  SliceColumns s;
  const size_t n = 1'000'000;
  for (size_t i = 0; i < n; ++i) {
    s.start.push_back(static_cast<TimeNs>(i));
    s.dur.push_back(static_cast<TimeNs>(2 * n));  // every slice overlaps every other
  }
  uint16_t lanes = 0;
  assignLanes(s, lanes);
  EXPECT_EQ(lanes, UINT16_MAX);
  EXPECT_EQ(s.depth[0], 0);
  EXPECT_EQ(s.depth[UINT16_MAX - 2], UINT16_MAX - 2);
  EXPECT_EQ(s.depth[n - 1], UINT16_MAX - 1);  // past the cap: the last lane is shared
}

// ---- Nsight SQLite: the schema is untrusted.

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << "\n" << sql;
}

std::string database(const std::string& name, const std::string& sql) {
  const std::string path = test::tempPath(name);
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  exec(db, sql);
  sqlite3_close(db);
  return path;
}

const std::string kKernelTable =
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
    " contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT NULL);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1600, 4600, 0, 1, 7, 1, 0, 2);";

TEST(HostileInput, SqliteGeneratedColumnsAreRefusedBeforeAnyRowIsRead) {
  // 8 KB on disk, gigabytes when read: every row's value is computed on reading.
  const std::string path =
      database("generated.sqlite", kKernelTable +
                                       "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT GENERATED ALWAYS AS "
                                       "(printf('%.*c', 100000000, 'x')) VIRTUAL);"
                                       "INSERT INTO StringIds (id) VALUES (1), (2), (3);");
  LoadResult r = loadTraceFile(path);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("StringIds.value is a generated column"), std::string::npos) << r.error;
  expectOneLine(r.error);
}

TEST(HostileInput, SqliteWrongDeclaredTypesAndHugeValuesAreOneLine) {
  std::string path = database(
      "types.sqlite",
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start TEXT, end INT, deviceId INT, streamId INT, demangledName INT);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('1', 2, 0, 7, 1);");
  LoadResult r = loadTraceFile(path);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("CUPTI_ACTIVITY_KIND_KERNEL.start is declared TEXT, expected an integer column"),
            std::string::npos)
      << r.error;
  // A value past the 16 MiB cap: the query stops with the row named.
  path =
      database("toobig.sqlite", kKernelTable + "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "INSERT INTO StringIds VALUES (2, ?)", -1, &st, nullptr), SQLITE_OK);
    const std::string big(kMaxSqliteValueBytes + 1, 'n');
    sqlite3_bind_text(st, 1, big.c_str(), static_cast<int>(big.size()), SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
  }
  r = loadTraceFile(path);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("StringIds row 1"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("16 MiB"), std::string::npos) << r.error;
  expectOneLine(r.error);
}

TEST(HostileInput, SqliteTimesAtTheInt64LimitsNeverWrap) {
  const std::string path = database(
      "limits.sqlite",
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
      " streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT NULL);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (-9223372036854775807, 9223372036854775807, 0, 7, 1, 0, 2);");
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_GE(r.trace->diagnostics.count(WarningKind::TimeOutOfRange), 1u);
  EXPECT_GE(summarize(*r.trace).wall, 0);
}

}  // namespace
}  // namespace opscope
