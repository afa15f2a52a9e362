// Collectives across ranks, call by call (ranks/collective_calls.h): skew, the rank that
// arrived last, waiting against communication; per rank its late starts. The whole
// session (a folder of ranks, or a merged trace); one trace is one rank: nothing to match.
//
// JSON contract (names fixed; add, never rename): {"file", "ranks", "matched_calls",
// "clock_alignment", "per_rank": [{"rank", "collectives", "late_starts", "wait_us",
// "comm_us"}], "calls": [{"ordinal", "kind", "start_us", "skew_us", "last_rank",
// "wait_us", "comm_us", "op", "bus_bytes", "bus_gbs"}]} with calls by skew, largest first (--top N,
// 50 by default). bus_bytes: nccl-tests' bus bytes of the call from its c10d op's or
// nccl: annotation's recorded size, op the collective they name ("all_to_all" where the
// kernel is NCCL's SendRecv; "" when unknown), bus_gbs those over comm_us (the last rank's kernel,
// which waited for no one); both 0 where no rank's op records the size.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "perf/collective_of_op.h"
#include "perf/op_inputs.h"
#include "ranks/collective_calls.h"
#include "report/analysis_catalog.h"
#include "report/report_numbers.h"
#include "text/json_text.h"

namespace opscope::analyses {

namespace {

constexpr size_t kDefaultCalls = 50;

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

std::vector<const CollectiveCallAcross*> bySkew(const CollectivesAcrossRanks& c) {
  std::vector<const CollectiveCallAcross*> out;
  for (const CollectiveCallAcross& x : c.calls) out.push_back(&x);
  std::stable_sort(out.begin(), out.end(),
                   [](const CollectiveCallAcross* a, const CollectiveCallAcross* b) { return a->skew > b->skew; });
  return out;
}

std::string collectivesJson(const CollectivesAcrossRanks& c, const Trace& trace, const AnalysisRequest& req,
                            const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["ranks"] = c.ranks.size();
  j["matched_calls"] = c.matched;
  j["clock_alignment"] = c.clocks.method;
  nlohmann::ordered_json per = nlohmann::ordered_json::array();
  for (const RankCollectives& r : c.ranks)
    per.push_back({{"rank", r.rank},
                   {"collectives", r.collectives},
                   {"late_starts", r.lateStarts},
                   {"wait_us", us(r.wait)},
                   {"comm_us", us(r.comm)}});
  j["per_rank"] = std::move(per);
  nlohmann::ordered_json calls = nlohmann::ordered_json::array();
  const size_t top = req.top ? req.top : kDefaultCalls;
  for (const CollectiveCallAcross* x : bySkew(c)) {
    if (calls.size() == top) break;
    calls.push_back(
        {{"ordinal", x->ordinal},
         {"kind", x->kind},
         {"start_us", us(x->firstStart - trace.minTs)},
         {"skew_us", us(x->skew)},
         {"last_rank", x->lastRank < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(x->lastRank)},
         {"wait_us", us(x->waitTotal)},
         {"comm_us", us(x->comm)},
         {"op", x->op},
         {"bus_bytes", x->busBytes},
         {"bus_gbs", x->busGBs}});
  }
  j["calls"] = std::move(calls);
  return jsonText(j, 2) + "\n";
}

// Every call, by ordinal.
std::string collectivesCsv(const CollectivesAcrossRanks& c, const Trace& trace) {
  std::string out = "ordinal,kind,start_us,skew_us,last_rank,wait_us,comm_us,op,bus_bytes,bus_gbs\n";
  for (const CollectiveCallAcross& x : c.calls)
    out += std::to_string(x.ordinal) + "," + x.kind + "," + usText(x.firstStart - trace.minTs) + "," + usText(x.skew) +
           "," + (x.lastRank < 0 ? std::string() : std::to_string(x.lastRank)) + "," + usText(x.waitTotal) + "," +
           usText(x.comm) + "," + x.op + "," + shortestNumber(x.busBytes) + "," + shortestNumber(x.busGBs) + "\n";
  return out;
}

// Each call's bus bytes from the ops around its kernel on the first rank that records
// the message size (perf/collective_of_op.h); the group defaults to the job's world size,
// else to the session's ranks.
CollectivesAcrossRanks measure(const Trace& trace) {
  const std::vector<RankMetrics> ranks = measureRanks(trace);
  const OpInputs inputs(trace);
  const std::optional<int64_t> world =
      trace.meta.worldSize ? trace.meta.worldSize : std::optional<int64_t>(static_cast<int64_t>(ranks.size()));
  return collectivesAcrossRanks(ranks, [&](size_t, uint64_t kernel) {
    if (kernel == kNoRef) return CollectiveSize{};
    const auto message = collectiveOfKernel(inputs, EventRef::unpack(kernel), world);
    if (!message) return CollectiveSize{};
    return CollectiveSize{collectiveKindName(message->kind), collectiveBusBytes(*message)};
  });
}

}  // namespace

extern const AnalysisKind collectives;
const AnalysisKind collectives{
    .name = "collectives",
    .title = "Collectives across ranks: skew, late starts, waiting and communication",
    .tab = "Collectives",
    .help = "each collective matched across ranks: skew, the last rank, waiting against communication",
    .order = 72,
    .scope = AnalysisScope::WholeTrace,
    .compute = [](const Trace& trace, const AnalysisRequest&) { return analysisResult(measure(trace)); },
    .json =
        [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest& req, const std::string& path) {
          return collectivesJson(analysisValue<CollectivesAcrossRanks>(v), trace, req, path);
        },
    .csv = [](const AnalysisResult& v, const Trace& trace,
              const AnalysisRequest&) { return collectivesCsv(analysisValue<CollectivesAcrossRanks>(v), trace); },
};

}  // namespace opscope::analyses
