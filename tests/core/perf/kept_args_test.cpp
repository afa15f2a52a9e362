// LoadOptions::keepOpShapes: the shape args the loader keeps of every op are what the
// file gives back for them (read back by offset, the path they replace), one pass and
// parallel parts keep the same, and a prediction priced from them equals one priced from
// the file. On real traces other tools wrote, as plain files.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "io/args_text.h"
#include "io/trace_loader.h"
#include "perf/gpu_spec.h"
#include "perf/op_inputs.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string plainCopy(const std::string& gz, const std::string& name) {
  const std::string path = test::tempPath(name);
  std::ofstream(path, std::ios::binary) << test::gunzip(test::readFile(OPSCOPE_SOURCE_DIR "/" + gz));
  return path;
}

LoadResult load(const std::string& path, bool keep, unsigned threads) {
  LoadOptions o;
  o.keepOpShapes = keep;
  o.threads = threads;
  o.minPartBytes = 4096;
  return loadTraceFile(path, o);
}

const std::vector<std::string> kTraces = {
    "tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz",  // convolutions: pairs read whole args
    "tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
    "tests/data/tracelens/mi300_google_owlv2-large-patch14-ensemble__1016001.json.gz",
    "tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz",
};

TEST(KeptOpShapes, EveryOpKeepsWhatTheFileGivesBackForItsShapeKeys) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_shapes.json");
    const LoadResult one = load(path, true, 1);
    ASSERT_EQ(one.status, LoadStatus::Ok) << one.error;
    const Trace& t = *one.trace;
    size_t ops = 0, withShapes = 0;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      const SliceColumns& s = t.tracks[ti].slices;
      for (uint32_t i = 0; i < s.size(); ++i) {
        if (!isOpKind(s.kind[i]) || i >= s.argsAt.size()) continue;
        const auto it = std::lower_bound(t.opShapeArgs.begin(), t.opShapeArgs.end(), s.argsAt[i],
                                         [](const Trace::OpShapeArgs& a, uint64_t v) { return a.argsAt < v; });
        ASSERT_TRUE(it != t.opShapeArgs.end() && it->argsAt == s.argsAt[i]) << t.str(s.name[i]) << " row " << i;
        std::vector<NamedArg> fromFile;
        for (NamedArg& a : t.args({ti, i}))
          if (isShapeArgKey(a.key)) fromFile.push_back(std::move(a));
        const std::vector<NamedArg> kept = shapeArgsOfText(t.opShapeTexts.get(it->text));
        ASSERT_EQ(kept, fromFile) << t.str(s.name[i]) << " row " << i;
        ++ops;
        withShapes += !kept.empty();
      }
    }
    EXPECT_GT(ops, 1000u);
    EXPECT_GT(withShapes, ops / 4);  // recorded with shapes: most ops have some
    // Every op kept; a few events of an op's category the model files otherwise (24 of
    // TensorBoard's ResNet-50) keep theirs unused.
    EXPECT_GE(t.opShapeArgs.size(), ops);
    EXPECT_LE(t.opShapeArgs.size(), ops + ops / 100);

    // Parallel parts keep the same, by offset and text; without the option nothing.
    const LoadResult parts = load(path, true, 3);
    ASSERT_EQ(parts.status, LoadStatus::Ok) << parts.error;
    EXPECT_GE(parts.parts, 2u);
    ASSERT_EQ(parts.trace->opShapeArgs.size(), t.opShapeArgs.size());
    for (size_t k = 0; k < t.opShapeArgs.size(); ++k) {
      ASSERT_EQ(parts.trace->opShapeArgs[k].argsAt, t.opShapeArgs[k].argsAt) << k;
      ASSERT_EQ(parts.trace->opShapeTexts.get(parts.trace->opShapeArgs[k].text),
                t.opShapeTexts.get(t.opShapeArgs[k].text))
          << k;
    }
    EXPECT_TRUE(load(path, false, 1).trace->opShapeArgs.empty());
  }
}

TEST(KeptOpShapes, APredictionFromKeptShapesIsTheOneFromTheFile) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_shapes_predict.json");
    const LoadResult kept = load(path, true, 1), read = load(path, false, 1);
    ASSERT_EQ(kept.status, LoadStatus::Ok) << kept.error;
    ASSERT_EQ(read.status, LoadStatus::Ok) << read.error;
    ASSERT_FALSE(kept.trace->opShapeArgs.empty());
    PredictionSetup setup;
    setup.gpu = *builtinGpuSpecs().find("H100-SXM");
    const PredictionResult a = runPrediction(*kept.trace, setup), b = runPrediction(*read.trace, setup);
    ASSERT_EQ(a.ops.size(), b.ops.size());
    size_t priced = 0;
    for (size_t i = 0; i < a.ops.size(); ++i) {
      EXPECT_EQ(a.ops[i].model, b.ops[i].model) << i;
      EXPECT_EQ(a.ops[i].shapes, b.ops[i].shapes) << i;
      EXPECT_EQ(a.ops[i].predictedUs, b.ops[i].predictedUs) << i;
      priced += a.ops[i].predictedUs.has_value();
    }
    EXPECT_GT(priced, a.ops.size() / 4);
    ASSERT_EQ(a.iterations.size(), b.iterations.size());
    for (size_t i = 0; i < a.iterations.size(); ++i)
      EXPECT_EQ(a.iterations[i].predictedUs, b.iterations[i].predictedUs);
  }
}

// OpInputs parses a kept text once and gives every later op of that text its entry:
// each op's shapes still equal what its own args in the file give.
TEST(KeptOpShapes, OpInputsGivesEachOpTheShapesOfItsOwnArgs) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_shapes_inputs.json");
    const LoadResult r = load(path, true, 1);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    const Trace& t = *r.trace;
    OpInputs inputs(t);
    inputs.prefetch(std::nullopt);
    size_t ops = 0, withShapes = 0;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      if (t.tracks[ti].kind != TrackKind::Thread) continue;
      for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i) {
        const EventRef e{ti, i};
        if (!isOpKind(t.kind(e))) continue;
        // The kept entry is there to be used (the loader kept one for every op).
        ASSERT_NE(t.keptShapeArgs(e), nullptr) << t.name(e) << " row " << i;
        const OpShapes& got = inputs.shapes(e);
        const OpShapes own = opShapesFromArgs(t.args(e));
        ASSERT_EQ(got.inputs, own.inputs) << t.name(e) << " row " << i;
        ASSERT_EQ(got.types, own.types) << t.name(e) << " row " << i;
        ASSERT_EQ(got.concrete, own.concrete) << t.name(e) << " row " << i;
        ASSERT_EQ(got.dimsText, own.dimsText) << t.name(e) << " row " << i;
        ++ops;
        withShapes += own.recorded();
      }
    }
    EXPECT_GT(withShapes, ops / 4);
    EXPECT_LT(inputs.distinctShapes() * 5, withShapes) << inputs.distinctShapes() << " distinct of " << ops;
  }
}

TEST(KeptOpShapes, ATextNotWrittenByShapeArgsTextGivesNothing) {
  const std::vector<RawArg> raw = {{"Input Dims", 'r', "[[8, 16], []]"},
                                   {"Sequence number", 'n', "7"},
                                   {"Input type", 'r', "[\"float\", \"\"]"},
                                   {"Concrete Inputs", 'r', "[\"\", \"2\"]"}};
  const std::string text = shapeArgsText(raw);
  const std::vector<NamedArg> back = shapeArgsOfText(text);
  ASSERT_EQ(back.size(), 3u);  // the sequence number is no shape key
  EXPECT_EQ(back[0], toNamedArg(raw[0]));
  EXPECT_EQ(back[1], toNamedArg(raw[2]));
  EXPECT_EQ(back[2], toNamedArg(raw[3]));
  EXPECT_TRUE(shapeArgsOfText("").empty());
  EXPECT_TRUE(shapeArgsOfText(text.substr(0, text.size() - 1)).empty());     // cut
  EXPECT_TRUE(shapeArgsOfText(std::string("\x07r\x01\0\0\0x", 7)).empty());  // no such key
}

}  // namespace
}  // namespace opscope
