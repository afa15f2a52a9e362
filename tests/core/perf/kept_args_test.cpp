// LoadOptions::keepOpShapes and keepKernelLaunches: the shape args the loader keeps of
// every op, and the grid and block of every kernel, are what the file gives back for
// them (read back by offset, the path they replace), one pass and parallel parts keep
// the same, and a prediction priced from them equals one priced from the file. On real
// traces other tools wrote, as plain files.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analysis/occupancy.h"
#include "io/args_text.h"
#include "io/trace_loader.h"
#include "model/kept_args_in_order.h"
#include "perf/gpu_spec.h"
#include "perf/op_inputs.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

// A plain copy of a file of tests/data (its path from the source folder).
std::string plainCopy(const std::string& gz, const std::string& name) {
  return test::plainCopy(OPSCOPE_SOURCE_DIR "/" + gz, name);
}

enum class Keep { Nothing, OpShapes, WhatOpModelsRead };

LoadResult load(const std::string& path, Keep keep, unsigned threads) {
  LoadOptions o;
  if (keep == Keep::OpShapes) o.keepOpShapes = true;
  if (keep == Keep::WhatOpModelsRead) o.keepWhatOpModelsRead();
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

// The kept entry of row i of track ti, or nullptr.
const Trace::KeptArgs* keptAt(const Trace& t, uint32_t ti, uint32_t i) {
  const SliceColumns& s = t.tracks[ti].slices;
  const auto it = std::lower_bound(t.keptArgs.begin(), t.keptArgs.end(), s.argsAt[i],
                                   [](const Trace::KeptArgs& a, uint64_t v) { return a.argsAt < v; });
  return it != t.keptArgs.end() && it->argsAt == s.argsAt[i] ? &*it : nullptr;
}

// The event's args in the file whose keys pass isKey, in order.
template <class IsKey>
std::vector<NamedArg> fileArgs(const Trace& t, EventRef e, IsKey isKey) {
  std::vector<NamedArg> out;
  for (NamedArg& a : t.args(e))
    if (isKey(a.key)) out.push_back(std::move(a));
  return out;
}

// A load in parallel parts keeps what one pass (onePass) kept, by offset and text.
void expectPartsKeepWhatOnePassKeeps(const std::string& path, Keep keep, const Trace& onePass) {
  const LoadResult parts = load(path, keep, 3);
  ASSERT_EQ(parts.status, LoadStatus::Ok) << parts.error;
  EXPECT_GE(parts.parts, 2u);
  const Trace& p = *parts.trace;
  ASSERT_EQ(p.keptArgs.size(), onePass.keptArgs.size());
  for (size_t k = 0; k < onePass.keptArgs.size(); ++k) {
    ASSERT_EQ(p.keptArgs[k].argsAt, onePass.keptArgs[k].argsAt) << k;
    ASSERT_EQ(p.keptArgTexts.get(p.keptArgs[k].text), onePass.keptArgTexts.get(onePass.keptArgs[k].text)) << k;
  }
}

TEST(KeptArgs, EveryOpKeepsWhatTheFileGivesBackForItsShapeKeys) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_shapes.json");
    const LoadResult one = load(path, Keep::OpShapes, 1);
    ASSERT_EQ(one.status, LoadStatus::Ok) << one.error;
    const Trace& t = *one.trace;
    size_t ops = 0, withShapes = 0;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      const SliceColumns& s = t.tracks[ti].slices;
      for (uint32_t i = 0; i < s.size(); ++i) {
        if (!isOpKind(s.kind[i]) || i >= s.argsAt.size()) continue;
        const Trace::KeptArgs* it = keptAt(t, ti, i);
        ASSERT_TRUE(it) << t.str(s.name[i]) << " row " << i;
        const std::vector<NamedArg> fromFile = fileArgs(t, {ti, i}, isShapeArgKey);
        const std::vector<NamedArg> kept = keptArgsOfText(t.keptArgTexts.get(it->text));
        ASSERT_EQ(kept, fromFile) << t.str(s.name[i]) << " row " << i;
        ++ops;
        withShapes += !kept.empty();
      }
    }
    EXPECT_GT(ops, 1000u);
    EXPECT_GT(withShapes, ops / 4);  // recorded with shapes: most ops have some
    // Every op kept; a few events of an op's category the model files otherwise (24 of
    // TensorBoard's ResNet-50) keep theirs unused.
    EXPECT_GE(t.keptArgs.size(), ops);
    EXPECT_LE(t.keptArgs.size(), ops + ops / 100);

    // Parallel parts keep the same, by offset and text; without the option nothing.
    expectPartsKeepWhatOnePassKeeps(path, Keep::OpShapes, t);
    if (HasFatalFailure()) return;
    EXPECT_TRUE(load(path, Keep::Nothing, 1).trace->keptArgs.empty());
  }
}

TEST(KeptArgs, EveryKernelKeepsWhatTheFileGivesBackForItsGridAndBlock) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_launches.json");
    const LoadResult one = load(path, Keep::WhatOpModelsRead, 1);
    ASSERT_EQ(one.status, LoadStatus::Ok) << one.error;
    const Trace& t = *one.trace;
    size_t ops = 0, kernels = 0, withLaunch = 0;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      const SliceColumns& s = t.tracks[ti].slices;
      for (uint32_t i = 0; i < s.size(); ++i) {
        if (i >= s.argsAt.size() || s.argsAt[i] == SliceColumns::kNoArgsAt) continue;
        const bool kernel = s.kind[i] == SliceKind::Kernel;
        if (!kernel && !isOpKind(s.kind[i])) continue;
        const Trace::KeptArgs* it = keptAt(t, ti, i);
        ASSERT_TRUE(it) << t.str(s.name[i]) << " row " << i;
        const std::vector<NamedArg> kept = keptArgsOfText(t.keptArgTexts.get(it->text));
        if (kernel) {
          ASSERT_EQ(kept, fileArgs(t, {ti, i}, isLaunchArgKey)) << t.str(s.name[i]) << " row " << i;
          ++kernels;
          withLaunch += kept.size() == 2;
        } else {
          ASSERT_EQ(kept, fileArgs(t, {ti, i}, isShapeArgKey)) << t.str(s.name[i]) << " row " << i;
          ++ops;
        }
      }
    }
    EXPECT_GT(kernels, 1000u);
    EXPECT_GT(withLaunch, kernels * 9 / 10);  // Kineto records both of every kernel
    EXPECT_GE(t.keptArgs.size(), ops + kernels);
    EXPECT_LE(t.keptArgs.size(), ops + kernels + ops / 100);
    // Shapes alone keep no kernel's; parallel parts keep what one pass does.
    EXPECT_LE(load(path, Keep::OpShapes, 1).trace->keptArgs.size() + kernels, t.keptArgs.size());
    expectPartsKeepWhatOnePassKeeps(path, Keep::WhatOpModelsRead, t);
    if (HasFatalFailure()) return;
  }
}

// KeptArgsInOrder (the prefetch's search) gives keptArgsOf's entry for every row of
// every track, asked track by track in row order, as the prefetch asks, and in a
// shuffled order (each step out of order searches from the start again), on a load
// keeping what the models read and on one keeping nothing (its entries are all none).
TEST(KeptArgs, InOrderSearchGivesKeptArgsOfsEntryInAnyOrder) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_in_order.json");
    for (const Keep keep : {Keep::WhatOpModelsRead, Keep::Nothing}) {
      const LoadResult r = load(path, keep, 1);
      ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
      const Trace& t = *r.trace;
      std::vector<EventRef> rows;
      for (uint32_t ti = 0; ti < t.tracks.size(); ++ti)
        for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i) rows.push_back({ti, i});
      size_t found = 0;
      KeptArgsInOrder inOrder(t);
      for (EventRef e : rows) {
        const Trace::KeptArgs* k = inOrder.of(e);
        ASSERT_EQ(k, t.keptArgsOf(e)) << "track " << e.track << " row " << e.index;
        found += k != nullptr;
      }
      EXPECT_EQ(found > 0, keep == Keep::WhatOpModelsRead);
      if (keep == Keep::WhatOpModelsRead) {
        EXPECT_GE(found, t.keptArgs.size());  // every entry is some row's
      }
      std::mt19937 rng(7);
      std::shuffle(rows.begin(), rows.end(), rng);
      KeptArgsInOrder shuffled(t);
      for (EventRef e : rows) ASSERT_EQ(shuffled.of(e), t.keptArgsOf(e)) << "track " << e.track << " row " << e.index;
    }
  }
}

TEST(KeptArgs, APredictionFromKeptArgsIsTheOneFromTheFile) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_shapes_predict.json");
    const LoadResult kept = load(path, Keep::WhatOpModelsRead, 1), read = load(path, Keep::Nothing, 1);
    ASSERT_EQ(kept.status, LoadStatus::Ok) << kept.error;
    ASSERT_EQ(read.status, LoadStatus::Ok) << read.error;
    ASSERT_FALSE(kept.trace->keptArgs.empty());
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

// Counts the args objects read back from the file, by offset.
class CountingArgs : public LazyArgs {
 public:
  explicit CountingArgs(std::shared_ptr<const LazyArgs> inner) : inner(std::move(inner)) {}
  std::vector<NamedArg> read(uint64_t offset, std::string* error) const override {
    reads.insert(offset);
    return inner->read(offset, error);
  }
  std::shared_ptr<const LazyArgs> inner;
  mutable std::set<uint64_t> reads;
};

// OpInputs parses a kept text once and gives every later op or kernel of that text its
// entry: each op's shapes and each kernel's launch still equal what its own args in the
// file give, and no kernel's args are read back from the file for it.
TEST(KeptArgs, OpInputsGivesEachOpAndKernelWhatItsOwnArgsGive) {
  for (const std::string& gz : kTraces) {
    SCOPED_TRACE(gz);
    const std::string path = plainCopy(gz, "kept_shapes_inputs.json");
    LoadResult r = load(path, Keep::WhatOpModelsRead, 1);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    Trace& t = *r.trace;
    auto counting = std::make_shared<CountingArgs>(t.lazyArgs);
    t.lazyArgs = counting;
    OpInputs inputs(t);
    inputs.prefetch(std::nullopt);
    std::vector<std::pair<EventRef, KernelLaunchDims>> launches;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti)
      for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i)
        if (t.kind({ti, i}) == SliceKind::Kernel) launches.emplace_back(EventRef{ti, i}, inputs.launch({ti, i}));
    const std::set<uint64_t> readForInputs = counting->reads;
    t.lazyArgs = counting->inner;
    for (const auto& [e, got] : launches) {
      const uint64_t at = t.tracks[e.track].slices.argsAt[e.index];
      ASSERT_EQ(readForInputs.count(at), 0u) << t.name(e) << ": read back from the file";
      const std::vector<NamedArg> own = t.args(e);
      ASSERT_EQ(got.grid, launchGrid(own)) << t.name(e) << " row " << e.index;
      ASSERT_EQ(got.block, launchBlock(own)) << t.name(e) << " row " << e.index;
    }
    size_t ops = 0, withShapes = 0, kernels = launches.size();
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i) {
        const EventRef e{ti, i};
        if (t.kind(e) == SliceKind::Kernel) {
          if (t.tracks[ti].slices.argsAt[i] != SliceColumns::kNoArgsAt) {
            ASSERT_NE(t.keptArgsOf(e), nullptr) << t.name(e) << " row " << i;
          }
          continue;
        }
        if (t.tracks[ti].kind != TrackKind::Thread || !isOpKind(t.kind(e))) continue;
        // The kept entry is there to be used (the loader kept one for every op).
        ASSERT_NE(t.keptArgsOf(e), nullptr) << t.name(e) << " row " << i;
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
    EXPECT_GT(kernels, 1000u);
    EXPECT_LT(inputs.distinctLaunches() * 5, kernels) << inputs.distinctLaunches() << " distinct of " << kernels;
  }
}

TEST(KeptArgs, ATextHoldsItsKindsKeysAndOneNotWrittenByKeptArgsTextGivesNothing) {
  const std::vector<RawArg> raw = {{"Input Dims", 'r', "[[8, 16], []]"},
                                   {"Sequence number", 'n', "7"},
                                   {"Input type", 'r', "[\"float\", \"\"]"},
                                   {"Concrete Inputs", 'r', "[\"\", \"2\"]"},
                                   {"grid", 'r', "[4, 1, 1]"},
                                   {"block", 'r', "[128, 1, 1]"}};
  const std::string text = keptArgsText(raw, KeptArgKeys::OpShapes);
  const std::vector<NamedArg> back = keptArgsOfText(text);
  ASSERT_EQ(back.size(), 3u);  // the sequence number is no shape key
  EXPECT_EQ(back[0], toNamedArg(raw[0]));
  EXPECT_EQ(back[1], toNamedArg(raw[2]));
  EXPECT_EQ(back[2], toNamedArg(raw[3]));
  const std::vector<NamedArg> launch = keptArgsOfText(keptArgsText(raw, KeptArgKeys::KernelLaunch));
  ASSERT_EQ(launch.size(), 2u);  // a kernel's text holds its grid and block only
  EXPECT_EQ(launch[0], toNamedArg(raw[4]));
  EXPECT_EQ(launch[1], toNamedArg(raw[5]));
  EXPECT_EQ(launchGrid(launch), (std::array<int64_t, 3>{4, 1, 1}));
  EXPECT_TRUE(keptArgsOfText("").empty());
  EXPECT_TRUE(keptArgsOfText(text.substr(0, text.size() - 1)).empty());     // cut
  EXPECT_TRUE(keptArgsOfText(std::string("\x07r\x01\0\0\0x", 7)).empty());  // no such key
}

}  // namespace
}  // namespace opscope
