#pragma once
// Loads the traces of a multi-rank session on a pool of worker threads, with one
// progress figure and one cancel for the whole set.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/load_result.h"

namespace opscope {

struct RankLoadProgress {
  size_t filesDone = 0, filesTotal = 0;
  uint64_t bytesDone = 0, bytesTotal = 0;  // over every file (compressed bytes for .gz)
};

struct RankLoadOptions {
  // Worker threads; 0: the hardware's, at most 8 and at most one per file. Peak memory
  // is about `threads` traces being built plus whatever `done` keeps.
  unsigned threads = 0;
  // Called from the workers (never two at once); return false to cancel every load.
  std::function<bool(const RankLoadProgress&)> progress;
};

// Loads every file and hands each result to done(index into files, result) on the
// worker that loaded it (calls may run concurrently for different files). A cancelled
// set hands the remaining files LoadStatus::Cancelled. Returns false when cancelled.
bool loadRankFiles(const std::vector<std::string>& files, const RankLoadOptions& options,
                   const std::function<void(size_t, LoadResult&&)>& done);

}  // namespace opscope
