#include "fuzz_entries.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

#include "analysis/find_events.h"
#include "analysis/kernel_classes.h"
#include "analysis/overhead_model.h"
#include "analysis/summary.h"
#include "analysis/utilisation_counters.h"
#include "et/chakra_et.h"
#include "et/et_link.h"
#include "et/execution_trace.h"
#include "hierarchy/finalize.h"
#include "io/byte_source.h"
#include "io/dvdt_loader.h"
#include "io/nsys_sqlite_loader.h"
#include "io/plaidml_eventlog_loader.h"
#include "io/rocprofv3_loader.h"
#include "io/trace_loader.h"
#include "io/xplane_loader.h"
#include "perf/conv_microbench.h"
#include "perf/gpu_spec.h"
#include "perf/kernel_models.h"
#include "perf/microbenchmarks.h"
#include "perf/prediction.h"
#include "report/export_request.h"
#include "report/multi_rank_report.h"
#include "report/summary_report.h"

namespace opscope::fuzz {

namespace {

// The analyses a user runs on a loaded trace. The costly ones (the chart exports
// classify kernel names with regular expressions; the simulator) run one per input,
// chosen by the input's size: deterministic for each input, so coverage feedback stays
// consistent, and every analysis still meets thousands of inputs per minute.
void exercise(LoadResult& r, size_t selector) {
  if (r.status != LoadStatus::Ok || !r.trace) return;
  (void)gpuUtilisation(*r.trace, 2000);  // the counter track the GUI adds on every load
  const Trace& t = *r.trace;
  (void)summaryJson(summarize(t), "fuzz");
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
    for (uint32_t i = 0; i < t.slices(tr).size() && i < 8; ++i) (void)t.args(EventRef{tr, i});
  // The chart analyses and the simulator on small traces only: their corner cases need
  // few events, and running them on every input would cut the executions tenfold.
  if (t.sliceCount() > 64) return;
  const KernelClassifier& classes = KernelClassifier::builtin();
  // Every kind of the analysis catalog, JSON and CSV, or the prediction.
  const std::vector<const AnalysisKind*>& kinds = analysisCatalog();
  const size_t pick = selector % (kinds.size() + 1);
  if (pick < kinds.size()) {
    ExportRequest request;
    request.chart = kinds[pick];
    request.format = (selector / (kinds.size() + 1)) % 2 ? ExportFormat::Csv : ExportFormat::Json;
    (void)exportDataText(t, request, classes);
    return;
  }
  std::string why;
  PredictionSetup setup;
  setup.gpu = defaultGpu(t, builtinGpuSpecs(), why);
  setup.replay = selector % 2 == 0;
  (void)runPrediction(t, setup);
}

void withHierarchy(LoadResult r, size_t selector) {
  if (r.status == LoadStatus::Ok) buildHierarchy(*r.trace);
  exercise(r, selector);
}

// A file of this process's own, rewritten for every input (loaders that read by path).
std::string scratchFile(std::string_view bytes, const char* suffix) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/opscope-fuzz-" + std::to_string(::getpid()) + suffix;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  return path;
}

}  // namespace

void traceFile(std::string_view bytes) {
  const std::string path = scratchFile(bytes, ".trace");
  LoadResult r = loadTraceFile(path);
  exercise(r, bytes.size());
  std::remove(path.c_str());
}

namespace {

// What a user reads of an execution trace: every node's shapes, types and attributes,
// and both summaries.
void exerciseEt(const ExecutionTrace& et) {
  for (const EtNode& n : et.nodes) {
    (void)n.inputShapes();
    (void)n.inputTypes();
    (void)n.outputShapes();
    (void)n.outputTypes();
    (void)n.attributes();
  }
  (void)etSummaryJson(et, "fuzz");
  (void)etSummaryText(et, "fuzz");
}

}  // namespace

void executionTrace(std::string_view bytes) {
  std::string error;
  const auto et = parseExecutionTrace(bytes, error);
  if (et) exerciseEt(*et);
}

void chakraEt(std::string_view bytes) {
  auto src = ByteSource::fromMemory(std::string(bytes));
  std::string error;
  const auto et = readChakraEt(*src, error);
  if (et) exerciseEt(*et);
}

void rocprofv3(std::string_view bytes) {
  auto src = ByteSource::fromMemory(std::string(bytes));
  withHierarchy(loadRocprofv3(*src), bytes.size());
}

void xplane(std::string_view bytes) {
  auto src = ByteSource::fromMemory(std::string(bytes));
  withHierarchy(loadXPlane(*src), bytes.size());
}

void dvdt(std::string_view bytes) {
  auto src = ByteSource::fromMemory(std::string(bytes));
  withHierarchy(loadDvdtProf(*src), bytes.size());
}

void plaidml(std::string_view bytes) { withHierarchy(loadPlaidmlEventlog(bytes), bytes.size()); }

void nsysSqlite(std::string_view bytes) {
  const std::string path = scratchFile(bytes, ".sqlite");
  withHierarchy(loadNsysSqlite(path), bytes.size());
  std::remove(path.c_str());
}

void link(std::string_view bytes) {
  const size_t split = bytes.find('\0');
  if (split == std::string_view::npos) return;
  std::string error;
  const auto et = parseExecutionTrace(bytes.substr(0, split), error);
  if (!et) return;
  LoadResult r = loadTraceBytes(std::string(bytes.substr(split + 1)));
  if (r.status != LoadStatus::Ok) return;
  const EtLink l = linkExecutionTrace(*et, *r.trace);
  (void)etPlusJson(*et, *r.trace, l);
  (void)etLinkIssuesJson(*r.trace, l);
  (void)etLinkReportText(*r.trace, l);
}

void microbench(std::string_view bytes) {
  Microbenchmarks m;
  std::string error;
  if (!addMicrobenchmarkCsv(m, bytes, error)) {
    if (error.empty() || error.find('\n') != std::string::npos) std::abort();  // one line, always
    return;
  }
  for (const char* name : {"H100-SXM", "V100"}) {
    const GpuSpec& g = *builtinGpuSpecs().find(name);
    if (m.gemm)
      for (const GemmShape& s : {GemmShape{1, 64, 64, 64}, GemmShape{8, 4096, 1, 1 << 20}, GemmShape{0, 0, 0, 0}})
        if (!(m.gemm->predictUs(g, s) >= 0)) std::abort();
    if (m.conv)
      for (int64_t n : {int64_t{1}, int64_t{64}, int64_t{1} << 30})
        for (DType t : {DType::F32, DType::BF16})
          if (auto p = convolutionProblem2d(n, 64, 64, 56, 56, 3, 3, 1, 1, t)) {
            for (bool backward : {false, true}) {
              p->backward = backward;
              const auto us = m.conv->predictUs(g, *p, MathPath{true});
              if (us && !(*us >= 0)) std::abort();
            }
          }
  }
}

void gpuFile(std::string_view bytes) {
  std::string error;
  auto set = parseGpuSpecs(bytes, error);
  if (!set) {
    if (error.empty() || error.find('\n') != std::string::npos || error.size() > 400) std::abort();
    return;
  }
  for (const GpuSpec& g : set->gpus) {
    if (gpuSpecJson(g).empty()) std::abort();
    const GemmShape s{1, 4096, 4096, 4096};
    if (!(rooflineUs(g, gemmFlops(s), gemmBytes(s), DType::BF16) >= 0)) std::abort();
  }
}

void kernelClasses(std::string_view bytes) {
  const size_t nul = bytes.find('\0');
  KernelClassifier classifier = KernelClassifier::builtin();
  std::string_view name = bytes;
  if (nul != std::string_view::npos) {
    std::string error;
    if (auto user = KernelClassifier::fromJson(std::string(bytes.substr(0, nul)), error)) classifier.prepend(*user);
    else if (error.empty() || error.find('\n') != std::string::npos || error.size() > 400) std::abort();
    name = bytes.substr(nul + 1);
  }
  if (classifier.classify(name).empty()) std::abort();
  if (!name.empty()) {
    std::string longName;
    while (longName.size() < (size_t{256} << 10)) longName.append(name);
    if (classifier.classify(longName).empty()) std::abort();
    StringPool pool;
    pool.intern(longName);
    try {
      (void)matchNames(pool, {std::string(name.substr(0, 64)), true, false});
    } catch (const PatternError& e) {
      if (std::string_view(e.what()).find('\n') != std::string_view::npos) std::abort();
    }
  }
}

void overheadsFile(std::string_view bytes) {
  std::string error;
  auto model = parseOverheadModel(std::string(bytes), error);
  if (!model) {
    if (error.empty() || error.find('\n') != std::string::npos || error.size() > 400) std::abort();
    return;
  }
  if (overheadModelJson(*model).empty()) std::abort();
}

void rankTable(std::string_view bytes) {
  const std::string path = scratchFile(bytes, ".jsonl");
  std::vector<RankSummary> ranks;
  std::string error;
  if (readRankTable(path, ranks, error) && assignRanks(ranks, error)) {
    // Written as `summary --json TABLE` writes it (each line read again from the file):
    // always valid JSON, and text.
    const std::string json = multiRankJson(ranks, {});
    if (!nlohmann::ordered_json::accept(json)) std::abort();
    if (multiRankText(ranks, {}).empty()) std::abort();
    (void)rankTableOfSummaries(ranks, 5.0);
  } else if (error.empty() || error.find('\n') != std::string::npos) {
    std::abort();
  }
  std::remove(path.c_str());
}

}  // namespace opscope::fuzz
