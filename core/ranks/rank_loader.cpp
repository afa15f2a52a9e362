#include "ranks/rank_loader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>

#include "io/trace_loader.h"

namespace opscope {

bool loadRankFiles(const std::vector<std::string>& files, const RankLoadOptions& options,
                   const std::function<void(size_t, LoadResult&&)>& done) {
  const size_t n = files.size();
  unsigned threads = options.threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(n, 1)));

  std::vector<uint64_t> sizes(n, 0);
  RankLoadProgress total;
  total.filesTotal = n;
  for (size_t i = 0; i < n; ++i) {
    std::error_code ec;
    const auto s = std::filesystem::file_size(files[i], ec);
    sizes[i] = ec ? 0 : s;
    total.bytesTotal += sizes[i];
  }

  std::atomic<size_t> next{0};
  std::atomic<bool> cancelled{false};
  std::mutex progressMutex;
  uint64_t finishedBytes = 0;
  std::vector<uint64_t> inFlight(threads, 0);  // bytes done of the file each worker reads

  // Reports under the mutex; the figure is finished files plus every worker's share.
  auto report = [&](unsigned worker, uint64_t bytes, bool fileDone, uint64_t fileSize) {
    std::lock_guard lock(progressMutex);
    if (fileDone) {
      finishedBytes += fileSize;
      inFlight[worker] = 0;
      ++total.filesDone;
    } else {
      inFlight[worker] = bytes;
    }
    if (!options.progress) return;
    RankLoadProgress p = total;
    p.bytesDone = finishedBytes;
    for (uint64_t b : inFlight) p.bytesDone += b;
    if (!options.progress(p)) cancelled = true;
  };

  auto work = [&](unsigned worker) {
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= n) return;
      LoadResult r;
      if (cancelled) {
        r.status = LoadStatus::Cancelled;
        r.error = "cancelled";
      } else {
        LoadOptions lo;
        // The cores are shared among the rank workers: each parses its plain JSON files
        // on its share (8 ranks at once on 16 cores: 2 threads each, not 16).
        lo.threads = std::max(1u, std::thread::hardware_concurrency() / threads);
        lo.progress = [&, worker](const LoadProgress& p) {
          report(worker, std::min(p.bytesDone, sizes[i]), false, 0);
          return !cancelled.load();
        };
        // A worker thread must not throw: out of memory on one rank fails that rank only.
        try {
          r = loadTraceFile(files[i], lo);
        } catch (const std::bad_alloc&) {
          r = LoadResult{};
          r.status = LoadStatus::InvalidInput;
          r.error = "out of memory while loading";
        } catch (const std::exception& e) {
          r = LoadResult{};
          r.status = LoadStatus::InvalidInput;
          r.error = std::string("internal error: ") + e.what();
        }
      }
      done(i, std::move(r));
      report(worker, 0, true, sizes[i]);
    }
  };

  std::vector<std::thread> pool;
  for (unsigned w = 1; w < threads; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& t : pool) t.join();
  return !cancelled;
}

}  // namespace opscope
