// The analysis catalog: one entry per kind, and every front end that lists kinds reads
// it (export --chart, --help, the man page); its JSON and CSV are the export's.
#include <gtest/gtest.h>

#include <set>

#include "report/analysis_catalog.h"
#include "report/export_request.h"
#include "test_support.h"

namespace opscope {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

std::string run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

TEST(AnalysisCatalog, EveryKindIsCompleteAndNamedOnce) {
  const auto& kinds = analysisCatalog();
  ASSERT_GE(kinds.size(), 9u);
  std::set<std::string_view> names, tabs;
  int lastOrder = -1;
  for (const AnalysisKind* k : kinds) {
    EXPECT_TRUE(names.insert(k->name).second) << k->name;
    EXPECT_TRUE(tabs.insert(k->tab).second) << k->tab;
    EXPECT_FALSE(k->title.empty() || k->help.empty()) << k->name;
    EXPECT_TRUE(k->compute && k->json && k->csv) << k->name;
    EXPECT_GE(k->order, lastOrder) << "catalog sorted by order";
    lastOrder = k->order;
    EXPECT_EQ(findAnalysis(k->name), k);
  }
  EXPECT_EQ(findAnalysis("no-such-chart"), nullptr);
  EXPECT_EQ(kinds.front()->name, "overview");
}

TEST(AnalysisCatalog, ExportHelpAndTheManPageListTheCatalog) {
  std::string error;
  bool help = false;
  auto bad = parseExportArgs({"--chart", "nope", "--format", "json", "x", "-o", "-"}, error, help);
  EXPECT_FALSE(bad);
  EXPECT_EQ(error, "--chart must be one of " + analysisNames() + " (got 'nope')");
  const std::string usage = run(std::string(OPSCOPE_BINARY) + " --help");
  const std::string man = run(std::string(OPSCOPE_BINARY) + " --man-charts");
  for (const AnalysisKind* k : analysisCatalog()) {
    auto parsed = parseExportArgs({"--chart", std::string(k->name), "--format", "csv", "x", "-o", "-"}, error, help);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(parsed->chart, k);
    EXPECT_NE(usage.find(std::string(k->name) + " "), std::string::npos) << k->name;
    EXPECT_NE(usage.find(std::string(k->help)), std::string::npos) << k->help;
    std::string escaped;
    for (char c : k->name) escaped += c == '-' ? std::string("\\-") : std::string(1, c);
    EXPECT_NE(man.find(".B " + escaped + "\n"), std::string::npos) << k->name;
  }
}

// A whole-trace kind ignores the request's window; a windowed one follows it; the
// export's text is the kind's writer on the kind's result.
TEST(AnalysisCatalog, ScopesAndWritersAreTheExports) {
  auto loaded = loadTraceFile(kSample);
  ASSERT_EQ(loaded.status, LoadStatus::Ok);
  const Trace& t = *loaded.trace;
  ASSERT_GE(t.iterations.size(), 2u);
  for (const AnalysisKind* k : analysisCatalog()) {
    ExportRequest e;
    e.chart = k;
    e.file = "x";
    e.iteration = 1;
    const AnalysisRequest r = analysisRequestOf(t, e, KernelClassifier::builtin());
    ASSERT_TRUE(r.window);
    EXPECT_EQ(r.scopeLabel, "iteration 1");
    const auto result = computeAnalysis(*k, t, r);
    EXPECT_EQ(exportDataText(t, e, KernelClassifier::builtin()), k->json(*result, t, r, "x")) << k->name;
    e.format = ExportFormat::Csv;
    EXPECT_EQ(exportDataText(t, e, KernelClassifier::builtin()), k->csv(*result, t, r)) << k->name;
    AnalysisRequest whole = r;
    whole.window.reset();
    const std::string wholeJson = k->json(*computeAnalysis(*k, t, whole), t, whole, "x");
    if (k->scope == AnalysisScope::WholeTrace) {
      EXPECT_EQ(k->json(*result, t, r, "x"), wholeJson) << k->name;
    }
  }
  // The overview of one iteration is shorter than the whole trace's.
  const AnalysisKind& overview = analysisNamed("overview");
  AnalysisRequest r;
  r.window = iterationWindow(t.iterations, 1, 1);
  EXPECT_NE(overview.json(*computeAnalysis(overview, t, r), t, r, "x"),
            overview.json(*computeAnalysis(overview, t, {}), t, {}, "x"));
}

}  // namespace
}  // namespace opscope
