// Lazy args (plain files): every slice's args read back from the file must equal the
// args encoded while loading the same bytes, for every kind of value.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string writeTemp(const std::string& name, const std::string& bytes) {
  const std::string path = test::tempPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Loads path lazily and eagerly and compares every slice's args.
void expectSameArgs(const std::string& path, size_t minSlicesWithArgs = 1) {
  LoadResult lazy = loadTraceFile(path);
  LoadOptions eagerOptions;
  eagerOptions.eagerArgs = true;
  LoadResult eager = loadTraceFile(path, eagerOptions);
  ASSERT_EQ(lazy.status, LoadStatus::Ok) << lazy.error;
  ASSERT_EQ(eager.status, LoadStatus::Ok) << eager.error;
  const Trace& a = *lazy.trace;
  const Trace& b = *eager.trace;
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  size_t withArgs = 0;
  for (uint32_t t = 0; t < a.tracks.size(); ++t) {
    ASSERT_EQ(a.slices(t).size(), b.slices(t).size());
    for (uint32_t i = 0; i < a.slices(t).size(); ++i) {
      std::string error;
      const auto la = a.args({t, i}, &error);
      ASSERT_TRUE(error.empty()) << error;
      const auto eb = b.args({t, i});
      ASSERT_EQ(la, eb) << "track " << t << " row " << i << " (" << a.name({t, i}) << ")";
      // The lifted columns agree too.
      ASSERT_EQ(a.slices(t).correlation[i], b.slices(t).correlation[i]);
      ASSERT_EQ(a.slices(t).externalId[i], b.slices(t).externalId[i]);
      withArgs += !la.empty();
    }
    ASSERT_EQ(a.tracks[t].device, b.tracks[t].device);
    ASSERT_EQ(a.tracks[t].stream, b.tracks[t].stream);
  }
  EXPECT_GE(withArgs, minSlicesWithArgs);
  // Read in one pass (LazyArgs::readMany, as a prediction reads every op's args), asked
  // for in reverse order: the same args, each handed over once.
  std::vector<EventRef> all;
  for (uint32_t t = a.tracks.size(); t-- > 0;)
    for (uint32_t i = a.slices(t).size(); i-- > 0;) all.push_back({t, i});
  std::vector<int> handed(all.size(), 0);
  std::string error;
  a.argsOfEach(
      all,
      [&](size_t k, std::vector<NamedArg>&& args) {
        ++handed[k];
        EXPECT_EQ(args, b.args(all[k])) << "track " << all[k].track << " row " << all[k].index;
      },
      &error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(std::count(handed.begin(), handed.end(), 1), static_cast<ptrdiff_t>(all.size()));
  EXPECT_EQ(a.diagnostics.total(), b.diagnostics.total())
      << a.diagnostics.oneLine() << " / " << b.diagnostics.oneLine();
}

TEST(LazyArgs, EveryValueKindReadsBackAsEncoded) {
  const std::string path = writeTemp("lazy_kinds.json", R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":5,
     "args":{"External id":7,"Input Dims":[[64,128],[128]],"Input type":["float","float"],
             "neg":-3,"big":123456789012345678901234,"frac":0.25,"exp":1e3,"t":true,"f":false,"z":null,
             "s":"caf\u00e9 \"q\"","obj":{"a":[1,2,{"b":null}]},"empty":""}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":2,"dur":1,"args":{"correlation":9}},
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":3,"dur":1,
     "args":{"correlation":9,"device":0,"stream":7,"grid":[1,2,3],"registers per thread":32}},
    {"ph":"X","cat":"cpu_op","name":"no args","pid":1,"tid":1,"ts":10,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"empty args","pid":1,"tid":1,"ts":12,"dur":1,"args":{}},
    {"ph":"X","cat":"cpu_op","name":"not an object","pid":1,"tid":1,"ts":14,"dur":1,"args":[1,2]},
    {"ph":"X","cat":"cpu_op","name":"string id","pid":1,"tid":1,"ts":16,"dur":1,"args":{"External id":"42"}},
    {"ph":"B","cat":"cpu_op","name":"begin","pid":1,"tid":2,"ts":1,"args":{"k":"v"}},
    {"ph":"E","pid":1,"tid":2,"ts":4},
    {"ph":"b","cat":"async","name":"a","id":5,"pid":1,"ts":1,"args":{"step":1}},
    {"ph":"e","cat":"async","name":"a","id":5,"pid":1,"ts":3}
  ]})");
  expectSameArgs(path, 5);
  LoadResult r = loadTraceFile(path);
  const Trace& t = *r.trace;
  const EventRef op = test::only(t, "op");
  const auto args = t.args(op);
  ASSERT_EQ(args.size(), 13u);
  EXPECT_EQ(args[1].key, "Input Dims");
  EXPECT_EQ(args[1].type, ArgType::Json);
  EXPECT_EQ(args[1].text, "[[64,128],[128]]");
  EXPECT_EQ(args[4].type, ArgType::Json);  // beyond int64: exact text
  EXPECT_EQ(args[4].text, "123456789012345678901234");
  EXPECT_EQ(args[10].text, "caf\xC3\xA9 \"q\"");
  EXPECT_EQ(t.slices(op.track).externalId[op.index], 7);
  EXPECT_EQ(t.slices(test::only(t, "string id").track).externalId[test::only(t, "string id").index], 42);
  // Lazy: no encoded args kept.
  EXPECT_EQ(t.slices(op.track).argsBlob.size(), 0u);
  EXPECT_EQ(t.slices(op.track).argsAt.size(), t.slices(op.track).size());
  std::remove(path.c_str());
}

TEST(LazyArgs, IndentedArraysAndObjectsAreCompactedBothWays) {
  // As json.dump(indent=2) writes a trace: shapes over several lines. Whitespace
  // between tokens goes; whitespace inside strings stays.
  const std::string path = writeTemp("lazy_indented.json", R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":5,
     "args":{
       "Input Dims": [
         [
           8,
           256
         ],
         [ 256 ]
       ],
       "Input type": [ "c10::Half", "a b\" ]" ],
       "obj": { "k" : [ 1 , 2 ] }
     }}
  ]})");
  expectSameArgs(path, 1);
  for (const bool eager : {false, true}) {
    LoadOptions o;
    o.eagerArgs = eager;
    LoadResult r = loadTraceFile(path, o);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    const auto args = r.trace->args(test::only(*r.trace, "op"));
    ASSERT_EQ(args.size(), 3u);
    EXPECT_EQ(args[0].text, "[[8,256],[256]]");
    EXPECT_EQ(args[1].text, R"(["c10::Half","a b\" ]"])");
    EXPECT_EQ(args[2].text, R"({"k":[1,2]})");
  }
  std::remove(path.c_str());
}

// Args kept in memory compact each distinct raw array once (a cache bounded at 2 MiB of
// raw text): past the bound, texts met before and new ones, in other spellings of the
// same value, still encode as the file says (the lazy read-back compacts each anew).
TEST(LazyArgs, ShapeListsPastTheCompactionCacheEncodeAsTheFileSays) {
  std::string json = "[";
  auto shape = [](int i, bool spaced) {
    std::string a = spaced ? "[ [" : "[[";
    for (int k = 0; k < 12; ++k) a += std::to_string(i * 13 + k) + (k < 11 ? (spaced ? ", " : ",") : "");
    return a + (spaced ? "] , [ 7 ] ]" : "],[7]]");
  };
  auto event = [&](int i, int ts, bool spaced) {
    return R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)" + std::to_string(ts) +
           R"(,"dur":1,"args":{"Input Dims":)" + shape(i, spaced) + "}},\n";
  };
  int ts = 0;
  // 110,000 distinct lists of ~110 bytes: past the 2 MiB bound (12 MB of them).
  for (int i = 0; i < 110000; ++i) json += event(i, ts += 2, i % 2 == 0);
  // Met again after the bound, in the other spelling and the same one.
  for (int i = 0; i < 2000; ++i) {
    json += event(i, ts += 2, i % 2 == 1);
    json += event(i, ts += 2, i % 2 == 0);
  }
  json += R"({"ph":"X","cat":"cpu_op","name":"last","pid":1,"tid":1,"ts":)" + std::to_string(ts + 2) + R"(,"dur":1}])";
  ASSERT_GT(json.size(), size_t{12} << 20);
  const std::string path = writeTemp("lazy_cache_bound.json", json);
  expectSameArgs(path, 114000);
  LoadOptions o;
  o.eagerArgs = true;
  LoadResult r = loadTraceFile(path, o);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  // Event 3 and its two later meetings: one text, one string of the pool.
  const SliceColumns& s = t.slices(0);
  const std::span<const uint8_t> blob(s.argsBlob.data(), s.argsBlob.size());
  const std::vector<Arg> first = decodeArgs(blob, s.argsOffset[3]);
  const std::vector<Arg> again = decodeArgs(blob, s.argsOffset[110000 + 6]);
  const std::vector<Arg> same = decodeArgs(blob, s.argsOffset[110000 + 7]);
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(again.size(), 1u);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(t.str(first[0].value.s), "[[39,40,41,42,43,44,45,46,47,48,49,50],[7]]");
  EXPECT_EQ(again[0].value.s, first[0].value.s);
  EXPECT_EQ(same[0].value.s, first[0].value.s);
  std::remove(path.c_str());
}

TEST(LazyArgs, GzipAndMemoryInputsAreEncodedWhileLoading) {
  const std::string json = R"([{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":5,"args":{"a":1}}])";
  const std::string gz = writeTemp("lazy.json.gz", test::gzip(json));
  LoadResult r = loadTraceFile(gz);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  EXPECT_TRUE(r.trace->slices(0).argsAt.empty());
  EXPECT_FALSE(r.trace->lazyArgs);
  ASSERT_EQ(r.trace->args({0, 0}).size(), 1u);
  LoadResult m = loadTraceBytes(json);
  EXPECT_TRUE(m.trace->slices(0).argsAt.empty());
  EXPECT_EQ(m.trace->args({0, 0}), r.trace->args({0, 0}));
  std::remove(gz.c_str());
}

// A one-op trace with one arg, written under name and loaded lazily.
LoadResult loadOneOp(const std::string& name) {
  return loadTraceFile(
      writeTemp(name, R"([{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":5,"args":{"a":1}}])"));
}

// A later modification time, as any rewrite of the file gives.
void touchLater(const std::string& path) {
  std::filesystem::last_write_time(path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
}

TEST(LazyArgs, AFileChangedAfterLoadingSaysSoInsteadOfWrongArgs) {
  const std::string path = test::tempPath("lazy_changed.json");
  LoadResult r = loadOneOp("lazy_changed.json");
  ASSERT_EQ(r.status, LoadStatus::Ok);
  ASSERT_EQ(r.trace->args({0, 0}).size(), 1u);
  touchLater(path);
  std::string error;
  EXPECT_TRUE(r.trace->args({0, 0}, &error).empty());
  EXPECT_NE(error.find("changed since it was loaded"), std::string::npos) << error;
  std::remove(path.c_str());
  error.clear();
  EXPECT_TRUE(r.trace->args({0, 0}, &error).empty());
  EXPECT_FALSE(error.empty());
}

TEST(LazyArgs, LargeArgsObjectsNeedSeveralReads) {
  std::string big = R"([{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":5,"args":{"Input Dims":[)";
  for (int i = 0; i < 5000; ++i) {
    if (i) big += ',';
    big += "[1,2,3,4]";
  }
  big += R"(],"after":"x"}}])";
  const std::string path = writeTemp("lazy_big.json", big);
  expectSameArgs(path);
  std::remove(path.c_str());
}

TEST(LazyArgs, AnArgsObjectLargerThanTheBatchWindowIsReadWhole) {
  // 3 MB of dims: larger than readMany's 1 MiB window, which is read again from the
  // object at twice the size seen until it holds it; small objects on both sides.
  std::string big = R"([{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"k":1}},
    {"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":2,"dur":5,"args":{"Input Dims":[)";
  for (int i = 0; i < 300000; ++i) {
    if (i) big += ',';
    big += "[1,2,3]";
  }
  big += R"(],"after":"x"}},{"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":9,"dur":1,"args":{"k":2}}])";
  const std::string path = writeTemp("lazy_huge.json", big);
  expectSameArgs(path, 3);
  std::remove(path.c_str());
}

TEST(LazyArgs, ABatchReadOfAChangedFileSaysSoAndHandsOverEmptyArgs) {
  const std::string path = test::tempPath("lazy_changed_batch.json");
  LoadResult r = loadOneOp("lazy_changed_batch.json");
  ASSERT_EQ(r.status, LoadStatus::Ok);
  touchLater(path);
  const std::vector<EventRef> one{{0, 0}};
  int handed = 0;
  std::string error;
  r.trace->argsOfEach(
      one,
      [&](size_t, std::vector<NamedArg>&& args) {
        ++handed;
        EXPECT_TRUE(args.empty());
      },
      &error);
  EXPECT_EQ(handed, 1);
  EXPECT_NE(error.find("changed since it was loaded"), std::string::npos) << error;
  std::remove(path.c_str());
}

TEST(LazyArgs, GeneratedAndRealTracesReadBackAsEncoded) {
  const std::string tool = test::sharedTool("gen_kineto_trace.py");
  if (!std::filesystem::exists(tool)) GTEST_SKIP() << tool << " not present";
  const std::string out = test::tempPath("lazy_gen.json");
  const std::string cmd = "python3 " + tool + " --out " + out + " --mb 1 --seed 4 > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  expectSameArgs(out, 1000);
  std::remove(out.c_str());
  // The public traces are gzipped: unpacked to a plain file first.
  for (const char* name : {"recsys_rank0_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"}) {
    const auto gz = test::sharedTrace(name);
    if (!gz) continue;
    const std::string plain = test::tempPath(std::string(name) + ".plain.json");
    ASSERT_EQ(std::system(("gzip -dc " + *gz + " > " + plain).c_str()), 0);
    expectSameArgs(plain, 100);
    std::remove(plain.c_str());
  }
}

}  // namespace
}  // namespace opscope
