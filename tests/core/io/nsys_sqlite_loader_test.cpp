// Nsight Systems SQLite exports: a database written here with nsys's table layout
// (tables are created lazily by nsys, so some are absent), loaded into the model.
#include "io/nsys_sqlite_loader.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "io/device_properties_json.h"
#include "io/trace_loader.h"
#include "report/summary_report.h"
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
  exec(db,
       "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
       "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'void gemm_kernel<float>(float*)'),"
       " (3, 'cudaMemcpyAsync'), (4, 'inner'), (5, 'main');"
       "CREATE TABLE ThreadNames (nameId INT NOT NULL, priority INT, globalTid INT);"
       "INSERT INTO ThreadNames VALUES (5, 0, " +
           g +
           ");"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, eventClass INT NOT NULL,"
           " globalTid INT, correlationId INT, nameId INT NOT NULL, returnValue INT NOT NULL, callchainId INT);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1500, 1, " +
           g +
           ", 1, 1, 0, NULL),"
           " (2000, 2300, 1, " +
           g + ", 2, 3, 0, NULL), (5000, 5100, 1, " + g +
           ", 3, 1, 0, NULL),"
           " (9000, 8000, 1, " +
           g +
           ", 4, 1, 0, NULL);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
           " contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT "
           "NULL,"
           " shortName INT NOT NULL, gridX INT, blockX INT);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1600, 4600, 0, 1, 7, 1, " +
           gp +
           ", 2, 2, 80, 256);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
           " contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, bytes INT NOT NULL,"
           " copyKind INT NOT NULL);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (4700, 4900, 0, 1, 7, 2, " +
           gp +
           ", 4096, 1);"
           "CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, rangeId INT, category INT,"
           " color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT, domainId INT);"
           "INSERT INTO NVTX_EVENTS VALUES (500, 6000, 59, NULL, NULL, NULL, 'forward', " +
           g +
           ", NULL, NULL, 0),"
           " (700, NULL, 34, NULL, NULL, NULL, 'checkpoint', " +
           g +
           ", NULL, NULL, 0),"
           " (800, 900, 60, NULL, NULL, NULL, NULL, " +
           g +
           ", NULL, 4, 0),"
           " (100, 200, 75, NULL, NULL, NULL, 'domain', " +
           g + ", NULL, NULL, 0);");
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
  EXPECT_EQ(test::slicesNamed(t, "inner").size(), 1u);  // start/end range named by textId
  EXPECT_TRUE(test::slicesNamed(t, "domain").empty());  // not a range
  EXPECT_EQ(t.instants.size(), 1u);                     // the mark
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

namespace opscope {
namespace {

// Two processes, each with a stream 7 and the same correlation ids (Nsight numbers them
// per process), a newer schema (greenContextId, ENUM tables, TARGET_INFO_GPU,
// PROCESSES), NVTX rows of every kind, a start/end range ending on another thread.
std::string writeTwoProcessFixture(const std::string& name) {
  const std::string path = test::tempPath(name);
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const int64_t p1 = 200, p2 = 300;
  const std::string g1 = std::to_string((p1 << 24) | 201), g1b = std::to_string((p1 << 24) | 202);
  const std::string g2 = std::to_string((p2 << 24) | 301);
  const std::string gp1 = std::to_string(p1 << 24), gp2 = std::to_string(p2 << 24);
  exec(db,
       "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
       "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'kernel_of_p1'), (3, 'kernel_of_p2'),"
       " (4, 'cudaMemcpyAsync'), (5, 'orphan_kernel');"
       "CREATE TABLE PROCESSES (globalPid INT, pid INT, name TEXT);"
       "INSERT INTO PROCESSES VALUES (" +
           gp1 + ", 200, 'trainer'), (" + gp2 +
           ", 300, 'server');"
           "CREATE TABLE TARGET_INFO_GPU (vmId INT, id INT, name TEXT, busLocation TEXT, totalMemory INT,"
           " smCount INT, computeMajor INT, computeMinor INT, uuid BLOB);"
           "INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA A100-PG509-200', '0000:07:00.0', 42505273344, 108, 8, 0, "
           "NULL);"
           "CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
           "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (1, 'CUDA_MEMCPY_OPER_HTOD', 'Host-to-Device');"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, eventClass INT NOT NULL,"
           " globalTid INT, correlationId INT, nameId INT NOT NULL, returnValue INT NOT NULL, callchainId INT);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
           " (1000, 1100, 1, " +
           g1 + ", 7, 1, 0, NULL), (1000, 1200, 1, " + g2 +
           ", 7, 1, 0, NULL),"
           " (3000, 3100, 1, " +
           g1 + ", 8, 4, 0, NULL), (5000, 5100, 1, " + g1 +
           ", NULL, 1, 0, NULL);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
           " contextId INT NOT NULL, greenContextId INT, streamId INT NOT NULL, correlationId INT, globalPid INT,"
           " demangledName INT NOT NULL, shortName INT NOT NULL, mangledName INT);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
           " (1500, 2500, 0, 1, NULL, 7, 7, " +
           gp1 +
           ", 2, 2, NULL),"
           " (1600, 2000, 0, 2, NULL, 7, 7, " +
           gp2 +
           ", 3, 3, NULL),"
           " (6000, 6100, 0, 1, NULL, 7, NULL, " +
           gp1 +
           ", 5, 5, NULL);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,"
           " contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, bytes INT NOT NULL,"
           " copyKind INT NOT NULL);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (3200, 3400, 0, 1, 7, 8, " +
           gp1 +
           ", 1024, 1);"
           "CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, rangeId INT, category INT,"
           " color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT, domainId INT);"
           "INSERT INTO NVTX_EVENTS VALUES"
           " (900, 5200, 59, NULL, NULL, NULL, 'step', " +
           g1 +
           ", NULL, NULL, 0),"
           " (950, 4000, 60, 1, NULL, NULL, 'async load', " +
           g1 + ", " + g1b +
           ", NULL, 0),"
           " (960, 970, 60, 2, NULL, NULL, 'same thread', " +
           g1 + ", " + g1 +
           ", NULL, 0),"
           " (10, NULL, 75, NULL, NULL, NULL, 'my domain', " +
           g1 +
           ", NULL, NULL, 1),"
           " (11, NULL, 33, NULL, 5, NULL, 'a category', " +
           g1 +
           ", NULL, NULL, 0),"
           " (12, NULL, 39, NULL, NULL, NULL, 'worker thread', " +
           g1 +
           ", NULL, NULL, 0),"
           " (980, NULL, 34, NULL, NULL, NULL, 'a mark', " +
           g1 + ", NULL, NULL, 0);");
  sqlite3_close(db);
  return path;
}

TEST(NsysSqlite, TwoProcessesKeepTheirStreamsAndCorrelationsApart) {
  LoadResult r = loadTraceFile(writeTwoProcessFixture("nsys_two_processes.sqlite"));
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  const EventRef k1 = test::only(t, "kernel_of_p1"), k2 = test::only(t, "kernel_of_p2");
  EXPECT_NE(k1.track, k2.track);  // both on device 0 stream 7, of different processes
  EXPECT_EQ(t.tracks[k1.track].stream, 7);
  EXPECT_EQ(t.tracks[k2.track].stream, 7);
  EXPECT_NE(t.str(t.processes[t.tracks[k1.track].process].name).find("trainer"), std::string::npos);
  EXPECT_NE(t.str(t.processes[t.tracks[k2.track].process].name).find("A100-PG509-200"), std::string::npos);
  // Each kernel links to the launch of its own process (both have correlation 7).
  const auto l1 = launchOf(t, k1), l2 = launchOf(t, k2);
  ASSERT_TRUE(l1 && l2);
  EXPECT_EQ(t.dur(*l1), 100);
  EXPECT_EQ(t.dur(*l2), 200);
  // A NULL correlation links to nothing (it is not correlation 0, nor the NULL launch).
  EXPECT_FALSE(launchOf(t, test::only(t, "orphan_kernel")));
  const EventRef copy = test::only(t, "Memcpy Host-to-Device");  // named from ENUM_CUDA_MEMCPY_OPER
  ASSERT_TRUE(launchOf(t, copy));
  EXPECT_EQ(t.name(*launchOf(t, copy)), "cudaMemcpyAsync");
  // NVTX: ranges and marks only; a start/end range ending on another thread is async.
  EXPECT_TRUE(test::slicesNamed(t, "my domain").empty());
  EXPECT_TRUE(test::slicesNamed(t, "a category").empty());
  EXPECT_TRUE(test::slicesNamed(t, "worker thread").empty());
  EXPECT_EQ(t.instants.size(), 1u);
  const EventRef async = test::only(t, "async load");
  EXPECT_EQ(t.tracks[async.track].kind, TrackKind::Async);
  EXPECT_EQ(t.tracks[test::only(t, "same thread").track].kind, TrackKind::Thread);
  EXPECT_EQ(t.diagnostics.count(WarningKind::Crossover), 0u);
  // The devices, as Kineto's deviceProperties give them, for the GPU presets.
  ASSERT_EQ(t.meta.devices.size(), 1u);
  EXPECT_EQ(t.meta.devices[0].name, "NVIDIA A100-PG509-200");
  EXPECT_EQ(t.meta.devices[0].totalGlobalMem, 42505273344.0);
  EXPECT_EQ(t.meta.devices[0].numSms, 108);
  const Summary s = summarize(t);
  EXPECT_EQ(s.deviceName, "NVIDIA A100-PG509-200");
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.linkedGpuEvents, 3u);  // two kernels and the copy; the orphan stays unlinked
}

// Inputs are opened immutable: a WAL-mode export leaves nothing beside it (SQLite made
// and left -wal and -shm files, and could not open such an export in a read-only
// folder), and a database SQLite cannot read gets SQLite's own words, not "not an nsys
// export": a bad page size in the header, a file cut in the middle of its pages.
TEST(NsysSqlite, OpenedImmutableNothingBesideItAndSqlitesOwnErrors) {
  const std::string wal = writeFixture("wal_mode.sqlite");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(wal.c_str(), &db), SQLITE_OK);
    exec(db, "PRAGMA journal_mode=WAL;");
    sqlite3_close(db);
  }
  std::remove((wal + "-wal").c_str());
  std::remove((wal + "-shm").c_str());
  LoadResult r = loadTraceFile(wal);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_EQ(test::slicesNamed(*r.trace, "void gemm_kernel<float>(float*)").size(), 1u);
  // The summary says nothing about decompressed bytes a database does not have.
  const std::string text = summaryText(summarize(*r.trace), "wal_mode.sqlite");
  EXPECT_EQ(text.find("decompressed"), std::string::npos) << text;
  EXPECT_NE(text.find("format nsys-sqlite, "), std::string::npos) << text;
  for (const char* side : {"-wal", "-shm", "-journal"}) {
    FILE* f = std::fopen((wal + side).c_str(), "rb");
    EXPECT_EQ(f, nullptr) << "left beside the input: " << wal + side;
    if (f) std::fclose(f);
  }

  const std::string good = writeFixture("pages.sqlite");
  std::string bytes = test::readFile(good);
  ASSERT_GT(bytes.size(), 4096u);
  const std::string badPage = test::tempPath("bad_page_size.sqlite");
  {
    std::string b = bytes;
    b[16] = 0x03;  // page size 768: not a power of two
    b[17] = 0x00;
    FILE* f = std::fopen(badPage.c_str(), "wb");
    std::fwrite(b.data(), 1, b.size(), f);
    std::fclose(f);
  }
  r = loadTraceFile(badPage);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("SQLite cannot read the database: "), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("not an nsys export"), std::string::npos) << r.error;

  // Cut after the first page: the schema says tables live on pages that are not there.
  const std::string cut = test::tempPath("cut_pages.sqlite");
  {
    FILE* f = std::fopen(cut.c_str(), "wb");
    std::fwrite(bytes.data(), 1, 4096 + 100, f);
    std::fclose(f);
  }
  r = loadTraceFile(cut);
  EXPECT_NE(r.status, LoadStatus::Ok);
  EXPECT_NE(r.error.find("malformed"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;

  // A path with the characters a URI gives meaning to still opens.
  const std::string odd = writeFixture("odd ?#% name.sqlite");
  r = loadTraceFile(odd);
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
}

}  // namespace
}  // namespace opscope
