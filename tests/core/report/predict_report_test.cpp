// predict --json writes its ops (a million on a 1 GB trace) an element at a time as text;
// the document must stay the bytes nlohmann writes for it as one value, indent 2.
#include "report/predict_report.h"

#include <gtest/gtest.h>

#include "io/trace_loader.h"
#include "perf/gpu_spec.h"
#include "perf/learned_efficiency.h"
#include "perf/prediction.h"
#include "test_support.h"
#include "text/json_text.h"

namespace opscope {
namespace {

void expectNlohmannLayout(const std::string& file, const PredictionSetup& setup) {
  const LoadResult r = loadTraceFile(file);
  ASSERT_EQ(r.status, LoadStatus::Ok) << file;
  const PredictionResult p = runPrediction(*r.trace, setup);
  const std::string text = predictionJson(*r.trace, p, file);
  const auto whole = nlohmann::ordered_json::parse(text, nullptr, false);
  ASSERT_FALSE(whole.is_discarded()) << file;
  EXPECT_EQ(text, jsonText(whole, 2) + "\n") << file;
  if (!setup.replay) {
    ASSERT_TRUE(whole["ops"].is_array());
    EXPECT_EQ(whole["ops"].size(), p.ops.size());
  }
}

TEST(PredictReport, TheJsonIsTheTextOfTheWholeDocument) {
  PredictionSetup setup;
  setup.gpu = *builtinGpuSpecs().find("H100-SXM");
  setup.withCalibratedRun = true;
  setup.efficiency = builtinEfficiencyTables();
  // Real traces: the H100 ResNet-50 (every op with shapes, learned curves) and TraceLens'
  // Qwen step (bf16 GEMMs, attention, names with templates); then a replay.
  for (const char* name : {"/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz",
                           "/tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"}) {
    SCOPED_TRACE(name);
    expectNlohmannLayout(std::string(OPSCOPE_SOURCE_DIR) + name, setup);
  }
  PredictionSetup replay = setup;
  replay.replay = true;
  expectNlohmannLayout(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz", replay);
}

}  // namespace
}  // namespace opscope
