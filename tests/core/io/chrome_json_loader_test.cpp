// Golden tests: tiny inline JSON in, expected rows out.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "analysis/op_index.h"
#include "hierarchy/queries.h"
#include "io/device_properties_json.h"
#include "model/args.h"
#include "test_support.h"

namespace opscope {
namespace {

using test::load;
using test::loadOk;
using test::only;

TEST(ChromeJson, CompleteEventKeepsNanoseconds) {
  auto t =
      loadOk(R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":5.1,"dur":1.0005}]})");
  ASSERT_TRUE(t);
  const EventRef r = only(*t, "aten::mm");
  EXPECT_EQ(t->start(r), 5100);
  EXPECT_EQ(t->dur(r), 1001);  // 1.0005 µs rounds half away from zero
  EXPECT_EQ(t->kind(r), SliceKind::CpuOp);
  EXPECT_EQ(t->str(t->tracks[r.track].slices.cat[r.index]), "cpu_op");
  EXPECT_EQ(t->meta.format, "kineto-json");
}

TEST(ChromeJson, SixteenDigitTimestampsStayDistinct) {
  // As doubles these two starts are the same number; as text they differ by 1 ns.
  auto t = loadOk(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1712196118349367.372,"dur":0.001},
                      {"ph":"X","name":"b","pid":1,"tid":1,"ts":1712196118349367.373,"dur":0.001}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->start(only(*t, "a")), 1712196118349367372LL);
  EXPECT_EQ(t->start(only(*t, "b")), 1712196118349367373LL);
  EXPECT_EQ(t->diagnostics.count(WarningKind::Crossover), 0u);
}

TEST(ChromeJson, BareArrayAndObjectFormAgree) {
  const std::string events = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}])";
  auto a = loadOk(events);
  auto b = loadOk(R"({"traceEvents":)" + events + "}");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->sliceCount(), 1u);
  EXPECT_EQ(b->sliceCount(), 1u);
  EXPECT_EQ(a->meta.format, "chrome-json");
}

TEST(ChromeJson, GzipDetectedByMagicBytes) {
  auto t = loadOk(test::gzip(R"({"traceEvents":[{"ph":"X","name":"k","pid":0,"tid":7,"ts":1,"dur":2}]})"));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->sliceCount(), 1u);
}

TEST(ChromeJson, ConcatenatedGzipMembersAreOneStream) {
  const std::string json = R"({"traceEvents":[{"ph":"X","name":"k","pid":0,"tid":7,"ts":1,"dur":2}]})";
  auto t = loadOk(test::gzip(json.substr(0, 20)) + test::gzip(json.substr(20)));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->sliceCount(), 1u);
}

TEST(ChromeJson, BeginEndPairsBecomeCompleteSlices) {
  auto t = loadOk(R"([
    {"ph":"B","name":"outer","pid":1,"tid":1,"ts":10},
    {"ph":"B","name":"inner","pid":1,"tid":1,"ts":12},
    {"ph":"E","pid":1,"tid":1,"ts":15},
    {"ph":"E","pid":1,"tid":1,"ts":20},
    {"ph":"B","name":"other thread","pid":1,"tid":2,"ts":11},
    {"ph":"E","pid":1,"tid":2,"ts":13}])");
  ASSERT_TRUE(t);
  const EventRef outer = only(*t, "outer"), inner = only(*t, "inner");
  EXPECT_EQ(t->dur(outer), 10000);
  EXPECT_EQ(t->dur(inner), 3000);
  EXPECT_EQ(t->parent(inner), outer);
  EXPECT_EQ(t->dur(only(*t, "other thread")), 2000);
  EXPECT_EQ(t->diagnostics.total(), 0u);
}

TEST(ChromeJson, InstantsWithScopes) {
  auto t = loadOk(R"([
    {"ph":"i","name":"thread mark","pid":1,"tid":1,"ts":1,"s":"t"},
    {"ph":"I","name":"default scope","pid":1,"tid":1,"ts":2},
    {"ph":"i","name":"Record Window End","pid":"","tid":"","ts":3,"s":"g"},
    {"ph":"i","name":"proc","pid":1,"tid":1,"ts":4,"s":"p"}])");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->instants.size(), 4u);
  EXPECT_EQ(t->instants[0].scope, InstantScope::Thread);
  EXPECT_EQ(t->instants[1].scope, InstantScope::Thread);
  EXPECT_EQ(t->instants[2].scope, InstantScope::Global);
  EXPECT_EQ(t->instants[3].scope, InstantScope::Process);
  EXPECT_EQ(t->instants[2].ts, 3000);
  EXPECT_EQ(t->sliceCount(), 0u);
}

TEST(ChromeJson, CountersBecomeSeriesPerArg) {
  auto t = loadOk(R"([
    {"ph":"C","name":"mem","pid":1,"ts":1,"args":{"allocated":10,"reserved":20}},
    {"ph":"C","name":"mem","pid":1,"ts":2,"args":{"allocated":15.5,"reserved":20}},
    {"ph":"C","name":"mem","pid":2,"ts":2,"args":{"allocated":1}}])");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->counters.size(), 3u);
  const CounterSeries& a = t->counters[0];
  EXPECT_EQ(t->str(a.name), "mem.allocated");
  ASSERT_EQ(a.ts.size(), 2u);
  EXPECT_EQ(a.ts[1], 2000);
  EXPECT_DOUBLE_EQ(a.value[1], 15.5);
  EXPECT_NE(t->counters[2].process, a.process);
}

TEST(ChromeJson, ALoneValueArgNamesItsSeriesByTheEventAlone) {
  // {"value": N} is how Chrome's own counters and opscope's written series hold one
  // number: the series is "queued", not "queued.value"; beside other args it keeps its key.
  auto t = loadOk(R"([
    {"ph":"C","name":"queued","pid":1,"ts":1,"args":{"value":3}},
    {"ph":"C","name":"queued","pid":1,"ts":2,"args":{"value":4}},
    {"ph":"C","name":"mem","pid":1,"ts":2,"args":{"value":1,"peak":2}}])");
  ASSERT_TRUE(t);
  std::set<std::string> names;
  for (const CounterSeries& c : t->counters) names.insert(std::string(t->str(c.name)));
  EXPECT_EQ(names, (std::set<std::string>{"queued", "mem.value", "mem.peak"}));
  EXPECT_EQ(t->counters[0].ts.size(), 2u);
}

TEST(ChromeJson, ATopLevelDeviceKindNamesTheDevicesAndABadOneIsWarned) {
  auto t = loadOk(R"({"deviceKind": "CPU device", "traceEvents": [
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2}]})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->meta.deviceKind, "CPU device");
  auto bad = loadOk(R"({"deviceKind": [1], "traceEvents": [
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2}]})");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->meta.deviceKind, "GPU");
  EXPECT_EQ(bad->diagnostics.count(WarningKind::BadMetadata), 1u);
}

TEST(ChromeJson, AsyncBeginEndOnAsyncTracks) {
  auto t = loadOk(R"([
    {"ph":"b","cat":"io","name":"read","id":"0x1","pid":1,"tid":1,"ts":1},
    {"ph":"b","cat":"io","name":"read","id":"0x2","pid":1,"tid":1,"ts":2},
    {"ph":"n","cat":"io","name":"progress","id":"0x1","pid":1,"tid":1,"ts":3},
    {"ph":"e","cat":"io","name":"read","id":"0x1","pid":1,"tid":1,"ts":5},
    {"ph":"e","cat":"io","name":"read","id":"0x2","pid":1,"tid":1,"ts":4}])");
  ASSERT_TRUE(t);
  auto reads = test::slicesNamed(*t, "read");
  ASSERT_EQ(reads.size(), 2u);
  for (EventRef r : reads) EXPECT_EQ(t->tracks[r.track].kind, TrackKind::Async);
  EXPECT_NE(reads[0].track, reads[1].track) << "different ids are different async tracks";
  TimeNs total = t->dur(reads[0]) + t->dur(reads[1]);
  EXPECT_EQ(total, 4000 + 2000);
  EXPECT_EQ(t->instants.size(), 1u);
}

// Whose an async id is, as the Trace Event Format, catapult and Perfetto read it: a plain
// "id" and an id2 "global" name one track across processes (drawn in the process of its
// first event); an id2 "local" one track per process.
TEST(ChromeJson, AsyncIdsNameOneTrackAcrossProcessesUnlessLocal) {
  auto t = loadOk(R"([
    {"ph":"M","name":"process_name","pid":3,"args":{"name":"p3"}},
    {"ph":"b","cat":"io","name":"plain","id":"1","pid":2,"tid":2,"ts":10},
    {"ph":"e","cat":"io","name":"plain","id":"1","pid":3,"tid":4,"ts":30},
    {"ph":"b","cat":"io","name":"global","id2":{"global":"0x5"},"pid":3,"tid":1,"ts":1},
    {"ph":"e","cat":"io","name":"global","id2":{"global":"0x5"},"pid":2,"tid":1,"ts":4},
    {"ph":"b","cat":"io","name":"local","id2":{ "local" : 7 },"pid":2,"tid":1,"ts":1},
    {"ph":"b","cat":"io","name":"local","id2":{"local":7},"pid":3,"tid":1,"ts":2},
    {"ph":"e","cat":"io","name":"local","id2":{"local":7},"pid":2,"tid":1,"ts":5},
    {"ph":"e","cat":"io","name":"local","id2":{"local":7},"pid":3,"tid":1,"ts":9},
    {"ph":"b","cat":"io","name":"cross","id2":{"local":"x"},"pid":2,"tid":1,"ts":1},
    {"ph":"e","cat":"io","name":"cross","id2":{"local":"x"},"pid":3,"tid":1,"ts":6}])");
  ASSERT_TRUE(t);
  const auto pidOf = [&](EventRef r) { return t->processes[t->tracks[r.track].process].pid.num; };
  const auto idOf = [&](EventRef r) { return std::string(t->str(t->tracks[r.track].tid.str)); };
  const EventRef plain = only(*t, "plain");
  EXPECT_EQ(t->dur(plain), 20'000) << "the end in pid 3 closes the begin in pid 2";
  EXPECT_EQ(pidOf(plain), 2);
  EXPECT_EQ(t->tracks[plain.track].scope, AsyncScope::Trace);
  const EventRef global = only(*t, "global");
  EXPECT_EQ(t->dur(global), 3'000);
  EXPECT_EQ(pidOf(global), 3);
  EXPECT_EQ(idOf(global), "0x5") << "the id2 object's value is the id";
  EXPECT_EQ(t->tracks[global.track].scope, AsyncScope::Trace);
  const auto local = test::slicesNamed(*t, "local");
  ASSERT_EQ(local.size(), 2u);
  EXPECT_NE(local[0].track, local[1].track);
  std::map<int64_t, TimeNs> byPid;
  for (EventRef r : local) {
    byPid[pidOf(r)] = t->dur(r);
    EXPECT_EQ(idOf(r), "7");
    EXPECT_EQ(t->tracks[r.track].scope, AsyncScope::Process);
  }
  EXPECT_EQ(byPid, (std::map<int64_t, TimeNs>{{2, 4'000}, {3, 7'000}}));
  // A local id's end in another process finds nothing open there.
  const EventRef cross = only(*t, "cross");
  EXPECT_EQ(t->tracks[cross.track].slices.flags[cross.index] & kFlagUnterminated, kFlagUnterminated);
  EXPECT_EQ(t->diagnostics.count(WarningKind::UnmatchedEnd), 1u);
}

// An id2 as Perfetto reads one: "global" wins over "local" whatever their order, a plain
// "id" over an id2, escapes are decoded; an id2 of another form (no such key, a value
// that is no string or number, a malformed object the loader let pass before) is an id
// all the same: its raw text, per process.
TEST(ChromeJson, AnId2IsReadAsPerfettoReadsIt) {
  auto t = loadOk(R"J([
    {"ph":"b","cat":"c","name":"both","pid":1,"tid":1,"ts":1,"id2":{"local":"a","global":"g"}},
    {"ph":"e","cat":"c","name":"both","pid":2,"tid":1,"ts":3,"id2":{"global":"g","local":"a"}},
    {"ph":"b","cat":"c","name":"null","pid":1,"tid":1,"ts":1,"id2":{"local":"n"},"id":null},
    {"ph":"e","cat":"c","name":"null","pid":1,"tid":1,"ts":6,"id":null,"id2":{"local":"n"}},
    {"ph":"b","cat":"c","name":"plain","pid":1,"tid":1,"ts":1,"id2":{"local":"x"},"id":"p"},
    {"ph":"e","cat":"c","name":"plain","pid":2,"tid":1,"ts":4,"id":"p","id2":{"local":"y"}},
    {"ph":"b","cat":"c","name":"esc","pid":1,"tid":1,"ts":1,"id2":{"local":"a\"b\\c (lane 2)"
}
},
    {"ph":"e","cat":"c","name":"esc","pid":1,"tid":1,"ts":5,"id2":{"local":"a\"b\\c (lane 2)"}}])J");
  ASSERT_TRUE(t);
  const EventRef both = only(*t, "both");
  EXPECT_EQ(t->dur(both), 2'000);
  EXPECT_EQ(t->str(t->tracks[both.track].tid.str), "g");
  const EventRef null = only(*t, "null");
  EXPECT_EQ(t->dur(null), 5'000);
  EXPECT_EQ(t->str(t->tracks[null.track].tid.str), "n") << "a null id is no id: the id2 stays";
  const EventRef plain = only(*t, "plain");
  EXPECT_EQ(t->dur(plain), 3'000) << "the plain ids pair across processes; the id2s are not read";
  EXPECT_EQ(t->str(t->tracks[plain.track].tid.str), "p");
  const EventRef esc = only(*t, "esc");
  EXPECT_EQ(t->dur(esc), 4'000);
  EXPECT_EQ(t->str(t->tracks[esc.track].tid.str), "a\"b\\c") << "decoded, its lane folded onto it";
  EXPECT_EQ(t->diagnostics.count(WarningKind::UnmatchedEnd), 0u);

  for (const char* id2 : {R"({"other":"a"})", R"({"local":{"a":1}})", R"({})", R"({"local" 5})", R"({"local":5 "x"})",
                          R"({"local": })", R"({"local": tru})"}) {
    auto u = loadOk(std::string(R"([{"ph":"b","cat":"c","name":"s","pid":1,"tid":1,"ts":1,"id2":)") + id2 +
                    R"(},{"ph":"e","cat":"c","name":"s","pid":1,"tid":1,"ts":2,"id2":)" + id2 +
                    R"(},{"ph":"b","cat":"c","name":"s","pid":2,"tid":1,"ts":1,"id2":)" + id2 + "}]");
    ASSERT_TRUE(u) << id2;
    const auto s = test::slicesNamed(*u, "s");
    ASSERT_EQ(s.size(), 2u) << id2;
    EXPECT_NE(s[0].track, s[1].track) << id2;
    EXPECT_EQ(u->str(u->tracks[s[0].track].tid.str), id2);
    EXPECT_EQ(u->diagnostics.count(WarningKind::UnmatchedEnd), 0u) << id2;
  }
}

// Flows and counters keep an id2's raw text as their id, as before async ids were
// scoped: a flow on id2 {"local": 5} does not end on a flow of id 5.
TEST(ChromeJson, FlowsAndCountersKeepAnId2AsWritten) {
  auto t = loadOk(R"([
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},
    {"ph":"X","name":"b","pid":1,"tid":2,"ts":5,"dur":2},
    {"ph":"s","cat":"f","name":"x","id2":{"local":5},"pid":1,"tid":1,"ts":2},
    {"ph":"f","cat":"f","name":"x","id":5,"pid":1,"tid":2,"ts":5,"bp":"e"},
    {"ph":"C","name":"mem","id2":{"local":5},"pid":1,"ts":1,"args":{"value":3}}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->flows.size(), 0u);
  ASSERT_EQ(t->counters.size(), 1u);
  EXPECT_EQ(t->str(t->counters[0].name), R"(mem {"local":5})");
}

// Labels "rank N" or "rank N, …" on every process are the ranks of a merged session
// opscope wrote (report/trace_writer.h); where a process lacks one they stay labels.
TEST(ChromeJson, ProcessLabelsStartingWithARankGiveTheProcessItsRank) {
  auto t = loadOk(R"([
    {"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"rank 12, GPU 0"}},
    {"ph":"M","name":"process_labels","pid":2,"tid":0,"args":{"labels":"rank 3"}},
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
    {"ph":"X","name":"b","pid":2,"tid":1,"ts":1,"dur":1}])");
  ASSERT_TRUE(t);
  auto process = [&](const Trace& tr, const char* name) -> const Process& {
    return tr.processes[tr.tracks[only(tr, name).track].process];
  };
  EXPECT_EQ(process(*t, "a").rank, 12);
  EXPECT_EQ(t->str(process(*t, "a").labels), "GPU 0");
  EXPECT_EQ(process(*t, "b").rank, 3);
  EXPECT_EQ(process(*t, "b").labels, 0u);
  // Not rank labels ("rank 3x", "rank , GPU", ten digits), or one process without a
  // label: nothing is read as a rank and every label stays as written.
  for (const char* other : {"rank 3x", "rank , GPU", "rank 12345678901", ""}) {
    const std::string labels = *other ? std::string(R"({"labels":")") + other + "\"}" : std::string("{}");
    auto u = loadOk(R"([
      {"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"rank 1, GPU 0"}},
      {"ph":"M","name":"process_labels","pid":2,"tid":0,"args":)" +
                    labels + R"(},
      {"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
      {"ph":"X","name":"b","pid":2,"tid":1,"ts":1,"dur":1}])");
    ASSERT_TRUE(u) << other;
    EXPECT_EQ(process(*u, "a").rank, kNoId) << other;
    EXPECT_EQ(u->str(process(*u, "a").labels), "rank 1, GPU 0") << other;
    EXPECT_EQ(process(*u, "b").rank, kNoId) << other;
  }
}

TEST(ChromeJson, MetadataNamesAndSortsTracks) {
  auto t = loadOk(R"([
    {"ph":"M","name":"process_name","pid":5,"tid":0,"args":{"name":"python"}},
    {"ph":"M","name":"process_labels","pid":5,"tid":0,"args":{"labels":"CPU"}},
    {"ph":"M","name":"process_sort_index","pid":5,"tid":0,"args":{"sort_index":3}},
    {"ph":"M","name":"thread_name","pid":5,"tid":9,"args":{"name":"pt_main_thread"}},
    {"ph":"M","name":"thread_sort_index","pid":5,"tid":9,"args":{"sort_index":-1}},
    {"ph":"X","name":"op","pid":5,"tid":9,"ts":1,"dur":1}])");
  ASSERT_TRUE(t);
  const EventRef op = only(*t, "op");
  const Track& tr = t->tracks[op.track];
  const Process& p = t->processes[tr.process];
  EXPECT_EQ(t->str(p.name), "python");
  EXPECT_EQ(t->str(p.labels), "CPU");
  EXPECT_EQ(p.rank, kNoId);
  EXPECT_TRUE(p.hasSortIndex);
  EXPECT_EQ(p.sortIndex, 3);
  EXPECT_EQ(t->str(tr.name), "pt_main_thread");
  EXPECT_EQ(tr.sortIndex, -1);
  EXPECT_EQ(t->trackLabel(op.track), "thread 9 (pt_main_thread)");
}

TEST(ChromeJson, StringAndNegativeIdsRoundTrip) {
  auto t = loadOk(R"json([
    {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":1,"dur":5},
    {"ph":"X","name":"watchdog","pid":7,"tid":-123456789,"ts":1,"dur":1}])json");
  ASSERT_TRUE(t);
  const EventRef span = only(*t, "PyTorch Profiler (0)");
  const Track& tr = t->tracks[span.track];
  EXPECT_EQ(t->rawIdText(t->processes[tr.process].pid), "Spans");
  EXPECT_EQ(t->rawIdText(tr.tid), "PyTorch Profiler");
  EXPECT_EQ(t->kind(span), SliceKind::TraceSpan);
  EXPECT_EQ(t->tracks[only(*t, "watchdog").track].tid.num, -123456789);
}

TEST(ChromeJson, TopLevelMetadataKept) {
  auto t = loadOk(R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA H100"}],
    "distributedInfo":{"backend":"nccl","rank":3,"world_size":8},"record_shapes":1,
    "traceEvents":[],"traceName":"rank3.pt.trace.json","displayTimeUnit":"ms",
    "baseTimeNanoseconds":1700000000000000000,"custom":{"a":1}})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->meta.schemaVersion, 1);
  EXPECT_EQ(t->meta.rank, 3);
  EXPECT_EQ(t->meta.worldSize, 8);
  ASSERT_FALSE(t->meta.devices.empty());
  EXPECT_NE(t->meta.devices[0].name.find("H100"), std::string::npos);
  EXPECT_EQ(t->meta.traceName, "rank3.pt.trace.json");
  EXPECT_EQ(t->meta.displayTimeUnit, "ms");
  EXPECT_EQ(t->meta.baseTimeNanoseconds, 1700000000000000000LL);
  EXPECT_EQ(t->meta.recordShapes, "1");
  ASSERT_EQ(t->meta.other.size(), 1u);
  EXPECT_EQ(t->meta.other[0].first, "custom");
  EXPECT_EQ(t->meta.format, "kineto-json");
}

TEST(ChromeJson, ArgsStoredAndDecodedOnDemand) {
  auto t = loadOk(R"([{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,
    "args":{"External id":17,"device":0,"stream":7,"correlation":99,"grid":[18,64,1],
            "blocks per SM":10.666667,"queued":0,"desc":"esc\"aped","flag":true,"none":null}}])");
  ASSERT_TRUE(t);
  const EventRef k = only(*t, "k");
  const SliceColumns& s = t->tracks[k.track].slices;
  EXPECT_EQ(s.correlation[k.index], 99);
  EXPECT_EQ(s.externalId[k.index], 17);
  EXPECT_EQ(t->tracks[k.track].stream, 7);
  EXPECT_EQ(t->tracks[k.track].device, 0);
  EXPECT_EQ(t->tracks[k.track].kind, TrackKind::GpuStream);
  EXPECT_EQ(t->trackLabel(k.track), "GPU 0 \xC2\xB7 stream 7");
  const auto args = decodeArgs({s.argsBlob.data(), s.argsBlob.size()}, s.argsOffset[k.index]);
  ASSERT_EQ(args.size(), 10u);
  std::map<std::string, std::string> m;
  for (const Arg& a : args) m[std::string(t->str(a.key))] = argValueToJson(a.value, t->strings);
  EXPECT_EQ(m["grid"], "[18,64,1]");
  EXPECT_EQ(m["blocks per SM"], "10.666667");
  EXPECT_EQ(m["desc"], "\"esc\\\"aped\"");
  EXPECT_EQ(m["flag"], "true");
  EXPECT_EQ(m["none"], "null");
  EXPECT_EQ(m["correlation"], "99");
}

TEST(ChromeJson, LegacyProfilerDialect) {
  auto t = loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"Operator","name":"aten::addmm","pid":1,"tid":1,"ts":10,"dur":50,"args":{"External id":5}},
    {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"external id":5,"correlation":42}},
    {"ph":"X","cat":"Kernel","name":"gemm","pid":0,"tid":"stream 7","ts":30,"dur":8,"args":{"external id":5,"correlation":42,"Device":0,"stream":7}},
    {"ph":"X","cat":"Memcpy","name":"Memcpy HtoD","pid":0,"tid":"stream 7","ts":40,"dur":2,"args":{"external id":0,"correlation":43,"Device":0,"stream":7}}]})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->meta.format, "legacy-pytorch-json");
  const EventRef op = only(*t, "aten::addmm"), launch = only(*t, "cudaLaunchKernel"), k = only(*t, "gemm");
  EXPECT_EQ(t->kind(op), SliceKind::CpuOp);
  EXPECT_EQ(t->kind(launch), SliceKind::Runtime);
  EXPECT_EQ(t->kind(k), SliceKind::Kernel);
  EXPECT_EQ(t->kind(only(*t, "Memcpy HtoD")), SliceKind::Memcpy);
  EXPECT_EQ(t->tracks[launch.track].slices.externalId[launch.index], 5);
  EXPECT_EQ(launchOf(*t, k), launch);
  EXPECT_EQ(enclosingOp(*t, launch), op);
}

TEST(ChromeJson, LegacyRecordFunctionSpansAreAnnotationsNotOps) {
  // The legacy dialect files record_function spans in the ops' own "Operator" category;
  // the op under them is the top-level op, as under Kineto's user_annotation.
  auto t = loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"Operator","name":"ProfilerStep#3","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"Operator","name":"## forward ##","pid":1,"tid":1,"ts":5,"dur":40},
    {"ph":"X","cat":"Operator","name":"aten::addmm","pid":1,"tid":1,"ts":10,"dur":20},
    {"ph":"X","cat":"Operator","name":"Optimizer.step#SGD.step","pid":1,"tid":1,"ts":50,"dur":30},
    {"ph":"X","cat":"Operator","name":"aten::add_","pid":1,"tid":1,"ts":55,"dur":5},
    {"ph":"X","cat":"Operator","name":"ProfilerStepX","pid":1,"tid":1,"ts":60,"dur":5}]})");
  ASSERT_TRUE(t);
  for (const char* n : {"ProfilerStep#3", "## forward ##", "Optimizer.step#SGD.step"})
    EXPECT_EQ(t->kind(only(*t, n)), SliceKind::UserAnnotation) << n;
  for (const char* n : {"aten::addmm", "aten::add_", "ProfilerStepX"})
    EXPECT_EQ(t->kind(only(*t, n)), SliceKind::CpuOp) << n;
  EXPECT_EQ(t->str(t->tracks[only(*t, "ProfilerStep#3").track].slices.cat[only(*t, "ProfilerStep#3").index]),
            "Operator");  // the category stays as written
  ASSERT_EQ(t->iterations.size(), 1u);
  EXPECT_EQ(t->iterations[0].number, 3);
  const OpIndex index(*t);
  const EventRef mm = only(*t, "aten::addmm"), add = only(*t, "aten::add_");
  EXPECT_TRUE(index.isTopOp(mm.track, mm.index));
  EXPECT_TRUE(index.isTopOp(add.track, add.index));
}

TEST(ChromeJson, NumericStringIdsAreTheNumbers) {
  // Kineto of 2021 wrote slices' tids as strings and flow starts' as numbers: one thread.
  auto t = loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":7,"tid":"25738","ts":10,"dur":5,"args":{"correlation":42}},
    {"ph":"s","cat":"async","name":"launch","id":42,"pid":7,"tid":25738,"ts":10},
    {"ph":"f","cat":"async","name":"launch","id":42,"pid":0,"tid":"stream 7","ts":30,"bp":"e"},
    {"ph":"X","cat":"Kernel","name":"gemm","pid":"0","tid":"stream 7","ts":30,"dur":8,"args":{"correlation":42,"stream":7}},
    {"ph":"X","name":"a","pid":7,"tid":"007","ts":1,"dur":1},
    {"ph":"X","name":"b","pid":7,"tid":-5,"ts":1,"dur":1},
    {"ph":"X","name":"c","pid":7,"tid":"-5","ts":1,"dur":1},
    {"ph":"X","name":"d","pid":7,"tid":"-0","ts":1,"dur":1},
    {"ph":"X","name":"e","pid":7,"tid":"12345678901234567890123","ts":1,"dur":1}]})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingFlow), 0u);
  const EventRef launch = only(*t, "cudaLaunchKernel");
  EXPECT_FALSE(t->tracks[launch.track].tid.isString);
  EXPECT_EQ(t->tracks[launch.track].tid.num, 25738);
  EXPECT_EQ(t->processes.size(), 2u);  // pid "0" is 0, the kernel's process
  EXPECT_EQ(only(*t, "b").track, only(*t, "c").track);
  // Not how a number prints: kept as text, a thread of its own.
  for (const char* n : {"a", "d", "e"}) EXPECT_TRUE(t->tracks[only(*t, n).track].tid.isString) << n;
  EXPECT_NE(only(*t, "a").track, only(*t, "b").track);
}

TEST(ChromeJson, EscapesAndUnicodeInNames) {
  auto t = loadOk(R"([{"ph":"X","name":"a\"b\\c \u00e9 \ud83d\ude00 \/","pid":1,"tid":1,"ts":1,"dur":1}])");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->name({0, 0}), "a\"b\\c \xC3\xA9 \xF0\x9F\x98\x80 /");
}

TEST(ChromeJson, UnsortedInputIsSortedPerTrack) {
  auto t = loadOk(R"([
    {"ph":"X","name":"late","pid":1,"tid":1,"ts":30,"dur":1},
    {"ph":"X","name":"child","pid":1,"tid":1,"ts":12,"dur":2},
    {"ph":"X","name":"parent","pid":1,"tid":1,"ts":10,"dur":10}])");
  ASSERT_TRUE(t);
  const SliceColumns& s = t->tracks[0].slices;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(t->str(s.name[0]), "parent");
  EXPECT_EQ(t->str(s.name[1]), "child");
  EXPECT_EQ(t->str(s.name[2]), "late");
  EXPECT_EQ(s.parent[1], 0);
  EXPECT_EQ(s.depth[1], 1);
}

TEST(ChromeJson, EventsSpanningManyWindowRefills) {
  // ~12 MB: several 4 MiB windows, events cut at every possible place.
  std::string json = "{\"traceEvents\":[\n";
  const int n = 60000;
  for (int i = 0; i < n; ++i) {
    json += "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kernel_" + std::to_string(i % 97) +
            "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(1000 + i * 10) + ".125, \"dur\": 5.5," +
            " \"args\": {\"correlation\": " + std::to_string(i) + ", \"pad\": \"" + std::string(100 + i % 61, 'x') +
            "\"}}";
    json += i + 1 < n ? ",\n" : "\n";
  }
  json += "]}";
  auto t = loadOk(json);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->sliceCount(), static_cast<uint64_t>(n));
  const SliceColumns& s = t->tracks[0].slices;
  for (int i = 0; i < n; i += 1237) {
    EXPECT_EQ(s.start[i], (1000 + i * 10) * 1000LL + 125);
    EXPECT_EQ(s.correlation[i], i);
  }
}

TEST(ChromeJson, SingleEventLargerThanTheWindow) {
  const std::string big(9 << 20, 'n');  // 9 MiB name: the window must grow
  auto t = loadOk("[{\"ph\":\"X\",\"name\":\"" + big +
                  "\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
                  "{\"ph\":\"X\",\"name\":\"after\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}]");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->sliceCount(), 2u);
  EXPECT_EQ(t->name({0, 0}).size(), big.size());
}

TEST(ChromeJson, ProgressIsReportedAndCancelStops) {
  std::string json = "[";
  for (int i = 0; i < 100000; ++i)
    json += "{\"ph\":\"X\",\"name\":\"e\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) + ",\"dur\":1},";
  json += "{}]";
  int calls = 0;
  LoadOptions opts;
  opts.progress = [&](const LoadProgress& p) {
    ++calls;
    EXPECT_LE(p.bytesDone, p.bytesTotal);
    return true;
  };
  EXPECT_EQ(loadTraceBytes(json, opts).status, LoadStatus::Ok);
  EXPECT_GE(calls, 1);

  opts.progress = [](const LoadProgress&) { return false; };
  LoadResult r = loadTraceBytes(json, opts);
  EXPECT_EQ(r.status, LoadStatus::Cancelled);
  EXPECT_FALSE(r.trace);
}

}  // namespace
}  // namespace opscope
