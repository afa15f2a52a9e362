// Real Nsight Systems exports other people wrote (tests/data/nsys, README there): CUPTI's
// versioned API names, the synchronisation table, older schemas, and processes that
// have no events.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "analysis/advice.h"
#include "analysis/critical_path.h"
#include "analysis/op_tree.h"
#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

const std::string kDir = OPSCOPE_SOURCE_DIR "/tests/data/nsys/";
const std::string kCloverleaf = kDir + "perlmutter_cloverleaf_a100_2024.sqlite";
const std::string kMordred = kDir + "mordred_quadro_rtx6000_2021.sqlite";

std::unique_ptr<Trace> loadFile(const std::string& path) {
  LoadResult r = loadTraceFile(path);
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
  return std::move(r.trace);
}

// A copy of a real export changed by SQL, in a temporary folder.
std::string changedCopy(const std::string& from, const std::string& name, const std::string& sql) {
  const std::string path = test::tempPath(name);
  std::filesystem::copy_file(from, path, std::filesystem::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
  return path;
}

size_t countNamed(const Trace& t, std::string_view name) { return test::slicesNamed(t, name).size(); }

// Runtime names lose CUPTI's version suffix ("cudaDeviceSynchronize_v3020"): the blocking
// calls are found, advise reports the host's 1,312 device synchronizes (301.7 ms, half
// the wall) that it missed, and the driver's own "_v2" names are left alone.
TEST(NsysRealExports, VersionedRuntimeNamesAreTheApisOwn) {
  auto t = loadFile(kCloverleaf);
  ASSERT_TRUE(t);
  EXPECT_EQ(countNamed(*t, "cudaDeviceSynchronize"), 1312u);
  EXPECT_EQ(countNamed(*t, "cudaDeviceSynchronize_v3020"), 0u);
  EXPECT_EQ(countNamed(*t, "cudaMemcpy"), 279u);
  EXPECT_GT(countNamed(*t, "cudaLaunchKernel"), 1000u);
  const Summary s = summarize(*t);
  EXPECT_EQ(s.launches, 3048u);
  EXPECT_EQ(s.linkedGpuEvents, 1591u);
  bool hostSync = false;
  for (const Advice& a : advise(*t))
    if (a.id == "host_sync") {
      hostSync = true;
      EXPECT_GT(a.sharePct, 45.0) << a.title;
      EXPECT_LE(a.sharePct, 100.0);
    }
  EXPECT_TRUE(hostSync);
}

// CUPTI_ACTIVITY_KIND_SYNCHRONIZATION becomes cuda_sync events tied to their calls: the
// whole-trace critical path holds kernels where it was every runtime call (571.7 of
// 618.4 ms) and no kernel; the record's type comes from its call (this export files
// cudaDeviceSynchronize as "Event sync").
TEST(NsysRealExports, SynchronisationRecordsCarryTheCriticalPath) {
  auto t = loadFile(kCloverleaf);
  ASSERT_TRUE(t);
  EXPECT_EQ(countNamed(*t, "Context Sync"), 1312u);
  const CriticalPath p = computeCriticalPath(*t, *criticalPathWindowOfTrace(*t));
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_TRUE(p.traceHasSyncEvents);
  EXPECT_GT(p.graphEdgesByType[static_cast<size_t>(CpEdgeType::Sync)], 1000u);
  const auto share = [&](CpCategory c) {
    return static_cast<double>(p.byCategory[static_cast<size_t>(c)]) / static_cast<double>(p.length());
  };
  EXPECT_GT(share(CpCategory::Kernel), 0.4);
  EXPECT_LT(share(CpCategory::Runtime), 0.5);
  // The device-wide records are no host op: the op tree's one root is the CUDA thread.
  const OpTree tree = buildOpTree(*t);
  ASSERT_EQ(tree.roots.size(), 1u);
  EXPECT_NE(t->trackLabel(tree.nodes[tree.roots[0]].track).find("cuda-cloverleaf"), std::string::npos);
}

// Only processes and threads with events count: the export lists the node's 1,771 OS
// processes. The GPU and the one CUDA process remain.
TEST(NsysRealExports, ProcessesAreThoseWithEvents) {
  auto t = loadFile(kCloverleaf);
  ASSERT_TRUE(t);
  const Summary s = summarize(*t);
  EXPECT_EQ(s.processes, 2u);
  EXPECT_LE(s.threads, 3u);
  bool named = false;
  for (const Process& p : t->processes) named |= t->str(p.name) == "cuda-cloverleaf";
  EXPECT_TRUE(named);
}

// Windows: OS process 0 ("Idle") has the GPU's number; the GPU keeps its own label.
TEST(NsysRealExports, OsProcessZeroDoesNotNameGpuZero) {
  const std::string path = changedCopy(kCloverleaf, "nsys_windows_pid0.sqlite",
                                       "INSERT INTO PROCESSES (globalPid, pid, name) VALUES (0, 0, 'Idle');");
  auto t = loadFile(path);
  ASSERT_TRUE(t);
  for (const Track& tr : t->tracks)
    if (tr.kind == TrackKind::GpuStream) {
      const std::string label = std::string(t->str(t->processes[tr.process].name));
      EXPECT_EQ(label.find("Idle"), std::string::npos) << label;
      EXPECT_NE(label.find("GPU 0"), std::string::npos) << label;
    }
  EXPECT_EQ(summarize(*t).processes, 2u);
  std::filesystem::remove(path);
}

// A 2020-21 export keys TARGET_INFO_GPU by deviceId (no id column): it was refused ("has no
// column id: not an Nsight export"); the device is named from it now.
TEST(NsysRealExports, TargetInfoGpuKeyedByDeviceIdLoads) {
  const std::string path = changedCopy(kMordred, "nsys_deviceid.sqlite",
                                       "CREATE TABLE old_gpu (vmId INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                                       "name TEXT, busLocation TEXT, isDiscrete INTEGER);"
                                       "INSERT INTO old_gpu SELECT vmId, id, name, busLocation, isDiscrete "
                                       "FROM TARGET_INFO_GPU; DROP TABLE TARGET_INFO_GPU;"
                                       "ALTER TABLE old_gpu RENAME TO TARGET_INFO_GPU;");
  auto t = loadFile(path);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->meta.devices.size(), 1u);
  EXPECT_EQ(t->meta.devices[0].name, "Quadro RTX 6000");
  const Summary s = summarize(*t);
  EXPECT_EQ(s.kernels, 12u);
  EXPECT_EQ(countNamed(*t, "cudaMemcpy"), countNamed(*loadFile(kMordred), "cudaMemcpy"));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace opscope
