#include "multi_rank_command.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "cli_common.h"
#include "ranks/rank_inputs.h"
#include "ranks/rank_loader.h"
#include "report/multi_rank_report.h"
#include "report/summary_report.h"

namespace opscope::app {

bool isMultiRankInput(const std::vector<std::string>& inputs) {
  if (inputs.size() > 1) return true;
  if (inputs.empty() || inputs[0] == "-") return false;
  const std::string& a = inputs[0];
  std::error_code ec;
  if (std::filesystem::is_directory(a, ec)) return true;
  if (isRankTablePath(a)) return true;
  return a.find_first_of("*?[") != std::string::npos && !std::filesystem::exists(a, ec);
}

int runMultiRankSummary(const MultiRankRequest& request) {
  std::vector<RankSummary> ranks;
  std::string error;
  if (request.inputs.size() == 1 && isRankTablePath(request.inputs[0])) {
    if (!readRankTable(request.inputs[0], ranks, error)) {
      std::fprintf(stderr, "opscope: %s: %s\n", request.inputs[0].c_str(), error.c_str());
      return kInvalidInput;
    }
    if (isPartialRankTablePath(request.inputs[0]))
      std::fprintf(stderr,
                   "opscope: %s: warning: the partial log of an opscope-cluster run that did not finish: %zu traces, "
                   "the others missing\n",
                   request.inputs[0].c_str(), ranks.size());
  } else {
    const std::vector<std::string> files = expandRankInputs(request.inputs, error);
    if (files.empty()) {
      std::fprintf(stderr, "opscope: %s\n", error.c_str());
      return kIoError;
    }
    ranks.resize(files.size());
    RankLoadOptions options;
    options.threads = request.jobs;
    // Each rank is summarised and measured on its worker, then its trace is dropped:
    // memory is a few traces at a time, whatever the number of ranks.
    loadRankFiles(files, options, [&](size_t i, LoadResult&& r) {
      RankSummary& out = ranks[i];
      out.file = files[i];
      if (r.status != LoadStatus::Ok) {
        out.error = r.error;
        return;
      }
      try {
        const Summary s = summarize(*r.trace, request.summary);
        out.summary = nlohmann::ordered_json::parse(summaryJson(s, files[i]));
        out.metrics = std::make_shared<const RankMetrics>(measureRank(*r.trace));
      } catch (const std::exception& e) {  // a worker must not throw (bad_alloc)
        out.summary = nullptr;
        out.error = std::string("cannot summarise: ") + e.what();
      }
    });
  }
  if (!assignRanks(ranks, error)) {
    std::fprintf(stderr, "opscope: %s\n", error.c_str());
    return kInvalidInput;
  }
  size_t loaded = 0;
  for (const RankSummary& r : ranks) {
    if (r.error.empty()) ++loaded;
    else std::fprintf(stderr, "opscope: %s: %s\n", r.file.c_str(), r.error.c_str());
  }
  if (loaded == 0) {
    std::fputs("opscope: no rank could be read\n", stderr);
    return kInvalidInput;
  }
  MultiRankOptions options;
  options.stragglerPct = request.stragglerPct;
  // Written a rank at a time: a table of 10^6 ranks is never one string.
  bool writeFailed = false;
  const TextSink out = [&](std::string_view piece) {
    if (!writeFailed && std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) writeFailed = true;
  };
  try {
    if (request.json) writeMultiRankJson(ranks, options, out);
    else writeMultiRankText(ranks, options, out);
  } catch (const std::runtime_error& e) {  // a table line that cannot be read again
    std::fflush(stdout);
    std::fprintf(stderr, "\nopscope: %s: %s\n", request.inputs[0].c_str(), e.what());
    return kIoError;
  }
  if (std::fflush(stdout) != 0 || writeFailed || std::ferror(stdout)) {
    std::fputs("opscope: cannot write the report to standard output\n", stderr);
    return kIoError;
  }
  return kOk;
}

}  // namespace opscope::app
