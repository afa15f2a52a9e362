#pragma once
// Helpers shared by the core tests: inline JSON in, a loaded trace out.
#include <optional>
#include <string>
#include <vector>

#include "io/trace_loader.h"

namespace opscope::test {

LoadResult load(const std::string& json);
// Loads and fails the test (via ADD_FAILURE) when the status is not Ok.
std::unique_ptr<Trace> loadOk(const std::string& json);
std::string gzip(const std::string& bytes);
// Bytes as read through the loader's byte source: gunzipped when they are gzip.
std::string gunzip(const std::string& bytes);
// Path of a file in ../shared/traces, or nullopt when the folder is absent.
std::optional<std::string> sharedTrace(const std::string& name);
std::string sharedTool(const std::string& name);
// Every slice with this name, in track then row order.
std::vector<EventRef> slicesNamed(const Trace& t, std::string_view name);
EventRef only(const Trace& t, std::string_view name);
std::string readFile(const std::string& path);
// A path for a temporary file in a folder of this test process, removed at its exit.
std::string tempPath(const std::string& name);
// A plain (gunzipped) copy of the file at path, at tempPath(name): a plain file's args
// are read back from it when asked (lazy args), a gzip file's are decoded while loading.
std::string plainCopy(const std::string& path, const std::string& name);
// A two-rank folder made of the sample at samplePath (distributedInfo rank 0 of world
// size 2): dir (emptied first) gets it as job_rank0.json.gz and a copy made rank 1 as
// job_rank1.json. ADD_FAILURE when the sample no longer names rank 0.
void writeTwoRankFolder(const std::string& samplePath, const std::string& dir);

}  // namespace opscope::test
