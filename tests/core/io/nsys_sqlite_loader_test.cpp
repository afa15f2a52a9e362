// Nsight Systems SQLite exports: a database written here with nsys's table layout
// (tables are created lazily by nsys, so some are absent), loaded into the model.
#include "io/nsys_sqlite_loader.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>

#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

constexpr int64_t kPid = 100, kTid = 101;
constexpr int64_t kGlobalTid = (kPid << 24) | kTid;

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << "\n" << sql;
}

std::string writeFixture(const std::string& name) {
  const std::string path = test::tempPath(name);
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const std::string g = std::to_string(kGlobalTid), gp = std::to_string(kPid << 24);
  exec(db, "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
           "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'void gemm_kernel<float>(float*)'),"
           " (3, 'cudaMemcpyAsync'), (4, 'inner'), (5, 'main');"
           "CREATE TABLE ThreadNames (nameId INT NOT NULL, priority INT, globalTid INT);"
           "INSERT INTO ThreadNames VALUES (5, 0, " + g + ");"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, eventClass INT NOT NULL,"
           " globalTid INT, correlationId INT, nameId INT NOT NULL, returnValue INT NOT NULL, callchainId INT);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 1, " + g + ", 1, 1, 0, NULL),"
           " (2000, 2300, 1, " + g + ", 2, 3, 0, NULL), (5000, 5100, 1, " + g + ", 3, 1, 0, NULL),"
           " (9000, 8000, 1, " + g + ", 4, 1, 0, NULL);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
           " contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT NULL,"
           " shortName INT NOT NULL, gridX INT, blockX INT);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1600, 4600, 0, 1, 7, 1, " + gp + ", 2, 2, 80, 256);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
           " contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, bytes INT NOT NULL,"
           " copyKind INT NOT NULL);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (4700, 4900, 0, 1, 7, 2, " + gp + ", 4096, 1);"
           "CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, rangeId INT, category INT,"
           " color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT, domainId INT);"
           "INSERT INTO NVTX_EVENTS VALUES (500, 6000, 59, NULL, NULL, NULL, 'forward', " + g + ", NULL, NULL, 0),"
           " (700, NULL, 34, NULL, NULL, NULL, 'checkpoint', " + g + ", NULL, NULL, 0),"
           " (800, 900, 60, NULL, NULL, NULL, NULL, " + g + ", NULL, 4, 0),"
           " (100, 200, 75, NULL, NULL, NULL, 'domain', " + g + ", NULL, NULL, 0);");
  sqlite3_close(db);
  return path;
}

TEST(NsysSqlite, IntoTheModel) {
  const std::string path = writeFixture("nsys_fixture.sqlite");
  LoadResult r = loadTraceFile(path);  // detected by content
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.format, "nsys-sqlite");
  const EventRef kernel = test::only(t, "void gemm_kernel<float>(float*)");
  EXPECT_EQ(t.start(kernel), 1600);
  EXPECT_EQ(t.dur(kernel), 3000);
  EXPECT_EQ(t.tracks[kernel.track].kind, TrackKind::GpuStream);
  EXPECT_EQ(t.tracks[kernel.track].stream, 7);
  const EventRef launch = *launchOf(t, kernel);
  EXPECT_EQ(t.name(launch), "cudaLaunchKernel");
  EXPECT_EQ(t.str(t.tracks[launch.track].name), "main");
  // NVTX push/pop ranges are the op stack: the launch sits in "forward".
  const auto chain = ancestors(t, launch);
  ASSERT_FALSE(chain.empty());
  EXPECT_EQ(t.name(chain.front()), "forward");
  EXPECT_EQ(test::slicesNamed(t, "inner").size(), 1u);   // start/end range named by textId
  EXPECT_TRUE(test::slicesNamed(t, "domain").empty());   // not a range
  EXPECT_EQ(t.instants.size(), 1u);                      // the mark
  EXPECT_EQ(t.diagnostics.count(WarningKind::NegativeDuration), 1u);
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.memcpys, 1u);
  EXPECT_EQ(s.linkedGpuEvents, 2u);
  EXPECT_EQ(s.gpuEvents, 2u);
}

TEST(NsysSqlite, NotAnExportOrBrokenIsOneLine) {
  const std::string empty = test::tempPath("empty.sqlite");
  std::remove(empty.c_str());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(empty.c_str(), &db), SQLITE_OK);
  exec(db, "CREATE TABLE other (x INT); INSERT INTO other VALUES (1);");
  sqlite3_close(db);
  LoadResult r = loadTraceFile(empty);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("not an nsys export"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
  // A cut file: the SQLite header, then garbage.
  const std::string cut = test::tempPath("cut.sqlite");
  {
    FILE* f = std::fopen(cut.c_str(), "wb");
    std::fwrite("SQLite format 3\0", 1, 16, f);
    for (int i = 0; i < 200; ++i) std::fputc(i, f);
    std::fclose(f);
  }
  r = loadTraceFile(cut);
  EXPECT_NE(r.status, LoadStatus::Ok);
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
}

}  // namespace
}  // namespace opscope
