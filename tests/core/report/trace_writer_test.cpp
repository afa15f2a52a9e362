// A trace written back as Chrome/Kineto JSON: it loads again with the same summary
// (slices, kernels, streams, links, iterations, ops), the same args, the critical path
// marked exactly where Holistic Trace Analysis' own overlaid trace marks it, the counter
// tracks the window adds, and a folder of ranks as one file.
#include "report/trace_writer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "analysis/summary.h"
#include "io/trace_loader.h"
#include "ranks/rank_metrics.h"
#include "ranks/rank_session.h"
#include "report/analysis_catalog.h"
#include "report/summary_report.h"
#include "test_support.h"

namespace opscope {
namespace {

const std::string kHta = OPSCOPE_SOURCE_DIR "/tests/data/hta/";

// The summary without what a rewrite changes by design: file, sizes, event count
// (metadata events), flows (bound ones only, plus the critical path's), counters (added)
// and warnings about the original file's dangling flows.
nlohmann::json comparable(const Trace& t) {
  auto j = nlohmann::json::parse(summaryJson(summarize(t), "x"));
  for (const char* k : {"file", "input_bytes", "json_bytes", "events", "flows", "counter_series", "warnings", "format"})
    j.erase(k);
  return j;
}

std::unique_ptr<Trace> reload(const std::string& json) {
  LoadResult r = loadTraceBytes(json);
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
  return std::move(r.trace);
}

TEST(TraceWriter, RoundTripsAndMarksHtasCriticalPath) {
  LoadResult lr = loadTraceFile(kHta + "critical_path/simple_add.json.gz");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const Trace& t = *lr.trace;
  const auto window = criticalPathWindowOfTrace(t);
  ASSERT_TRUE(window);
  const CriticalPath path = computeCriticalPath(t, *window);
  ASSERT_TRUE(path.ok()) << path.error;
  TraceWriteOptions o;
  o.criticalPath = &path;
  const std::string json = chromeTraceJson(t, o);
  auto back = reload(json);
  ASSERT_TRUE(back);
  EXPECT_EQ(comparable(*back), comparable(t));
  // The marks: HTA's published overlaid trace of this file has 624 events with
  // "critical": 1; ours are the same events (name and start).
  auto marked = [](const nlohmann::json& d) {
    std::set<std::pair<std::string, double>> out;
    for (const auto& e : d["traceEvents"])
      if (e.value("ph", "") == "X" && e.contains("args") && e["args"].value("critical", 0) == 1)
        out.insert({e["name"], std::round(e["ts"].get<double>() * 1000) / 1000});
    return out;
  };
  const nlohmann::json written = nlohmann::json::parse(json);
  const auto mine = marked(written);
  const auto hta =
      marked(nlohmann::json::parse(test::gunzip(test::readFile(kHta + "critical_path/simple_add_overlaid.json.gz"))));
  EXPECT_EQ(hta.size(), 624u);
  EXPECT_EQ(mine, hta);
  // And the path's arrows, category critical_path, fewer than its events.
  size_t arrows = 0;
  for (const auto& e : written["traceEvents"])
    arrows += e.value("ph", "") == "s" && e.value("cat", "") == "critical_path";
  EXPECT_GT(arrows, 100u);
  EXPECT_LT(arrows, mine.size());
}

TEST(TraceWriter, ArgsAndCountersSurviveAndARewriteIsStable) {
  LoadResult lr = loadTraceFile(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz");
  ASSERT_EQ(lr.status, LoadStatus::Ok);
  Trace& t = *lr.trace;
  for (const AnalysisKind* k : analysisCatalog())
    if (k->addTimelineCounters) k->addTimelineCounters(t);
  ASSERT_FALSE(t.counters.empty());
  const std::string json = chromeTraceJson(t);
  auto back = reload(json);
  ASSERT_TRUE(back);
  EXPECT_EQ(comparable(*back), comparable(t));
  EXPECT_EQ(back->counters.size(), t.counters.size());
  // ...with their names: "stream 7 · queued launches", not "….value" (a viewer's label).
  auto seriesNames = [](const Trace& tr) {
    std::multiset<std::string> out;
    for (const CounterSeries& c : tr.counters) out.insert(std::string(tr.str(c.name)));
    return out;
  };
  EXPECT_EQ(seriesNames(*back), seriesNames(t));
  // Every thread's and GPU stream's name, as the file had it ("stream 7"): a viewer that
  // shows the written file has nothing else to name a track by. Tracks are matched by
  // their label, which names the process and tid.
  std::map<std::string, std::string> names, namesBack;
  size_t streamNames = 0;
  for (uint32_t i = 0; i < t.tracks.size(); ++i)
    if (t.tracks[i].name && t.tracks[i].kind != TrackKind::Async) {
      names[t.trackLabel(i)] = t.str(t.tracks[i].name);
      streamNames += t.tracks[i].kind == TrackKind::GpuStream;
    }
  for (uint32_t i = 0; i < back->tracks.size(); ++i)
    if (back->tracks[i].name && back->tracks[i].kind != TrackKind::Async)
      namesBack[back->trackLabel(i)] = back->str(back->tracks[i].name);
  EXPECT_EQ(streamNames, 3u);
  EXPECT_EQ(namesBack, names);
  // Exported again (`export --trace` of the written file adds the timeline's series
  // first): the series it holds are not added twice.
  for (const AnalysisKind* k : analysisCatalog())
    if (k->addTimelineCounters) k->addTimelineCounters(*back);
  EXPECT_EQ(back->counters.size(), t.counters.size());
  // Every 17th slice's args, in order and typed as the file had them.
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
    for (uint32_t i = 0; i < t.tracks[tr].slices.size(); i += 17)
      ASSERT_EQ(back->args({tr, i}), t.args({tr, i})) << t.name({tr, i});
  // Written again, the same bytes.
  EXPECT_EQ(chromeTraceJson(*back), json);
}

TEST(TraceWriter, AFolderOfRanksIsOneFileWithAProcessPerRank) {
  LoadResult lr = loadTraceOrSession(kHta + "ranks");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const std::string json = chromeTraceJson(*lr.trace);
  auto back = reload(json);
  ASSERT_TRUE(back);
  EXPECT_EQ(summarize(*back).streams.size(), summarize(*lr.trace).streams.size());
  EXPECT_EQ(back->sliceCount(), lr.trace->sliceCount());
  // Read back, each process knows its rank again (the labels' "rank N"), and no two
  // ranks share a track: every rank's GPU 0 is pid 0 in its own file.
  std::set<int64_t> ranks;
  for (const Process& p : back->processes) ranks.insert(p.rank);
  EXPECT_EQ(ranks, (std::set<int64_t>{0, 1}));
  auto tracksOfKind = [](const Trace& t, TrackKind k) {
    return std::count_if(t.tracks.begin(), t.tracks.end(), [k](const Track& tr) { return tr.kind == k; });
  };
  EXPECT_EQ(tracksOfKind(*back, TrackKind::GpuStream), tracksOfKind(*lr.trace, TrackKind::GpuStream));
  EXPECT_EQ(tracksOfKind(*back, TrackKind::Thread), tracksOfKind(*lr.trace, TrackKind::Thread));
  // The ranks' correlation ids overlap; each kernel still finds its own rank's launch.
  EXPECT_EQ(back->links.gpuToLaunch.size(), lr.trace->links.gpuToLaunch.size());
  for (const auto& [gpu, launch] : back->links.gpuToLaunch) {
    const auto rankOf = [&](uint64_t ref) {
      return back->processes[back->tracks[EventRef::unpack(ref).track].process].rank;
    };
    ASSERT_EQ(rankOf(gpu), rankOf(launch)) << back->name(EventRef::unpack(gpu));
  }
  // Written again from the file read back, the same pids: those already in their rank's
  // range stay (they moved again on every round before), names get " (rank N)" once.
  auto pidsOf = [](const std::string& text) {
    std::set<std::string> out;
    const auto doc = nlohmann::json::parse(text);
    for (const auto& e : doc["traceEvents"])
      if (e.value("name", "") == "process_labels") out.insert(e["pid"].dump());
    return out;
  };
  // Every process name carries its rank for viewers that ignore process_labels
  // (Perfetto), and reads back without it.
  size_t named = 0;
  const auto doc = nlohmann::json::parse(json);
  for (const auto& e : doc["traceEvents"])
    if (e.value("name", "") == "process_name") {
      ++named;
      const std::string name = e["args"]["name"];
      EXPECT_TRUE(name.ends_with(" (rank 0)") || name.ends_with(" (rank 1)")) << name;
    }
  EXPECT_GT(named, 2u);
  std::multiset<std::string> namesBefore, namesAfter;
  for (const Process& p : lr.trace->processes) namesBefore.insert(std::string(lr.trace->str(p.name)));
  for (const Process& p : back->processes) namesAfter.insert(std::string(back->str(p.name)));
  EXPECT_EQ(namesAfter, namesBefore);
  const auto firstPids = pidsOf(json);
  EXPECT_EQ(pidsOf(chromeTraceJson(*back)), firstPids);
  EXPECT_EQ(firstPids.size(), 20u);  // 2 ranks × (CPU, 8 GPUs, Spans)
  EXPECT_TRUE(firstPids.count("\"Spans (rank 1)\""));
  EXPECT_TRUE(firstPids.count(std::to_string(int64_t{1} << 22)));  // rank 1's GPU 0
  // The multi-rank analyses read the written file as the folder: the same collectives.
  const auto before = measureRanks(*lr.trace), after = measureRanks(*back);
  ASSERT_EQ(after.size(), 2u);
  for (size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(after[r].collectives.size(), before[r].collectives.size()) << r;
    EXPECT_EQ(after[r].iterations.size(), before[r].iterations.size()) << r;
    EXPECT_EQ(after[r].gpuBusy, before[r].gpuBusy) << r;
  }
}

TEST(TraceWriter, APlainFilesArgsAreReadInOnePassAndWrittenWhole) {
  // A plain JSON trace keeps its args in the file: the writer reads them for every
  // slice in one pass over the file (in the file's order) and hands the text over a
  // piece at a time. The events written are the lines the same trace gzipped (args
  // loaded into memory, written in track order) gives; only their order differs; and a
  // rewrite of the written file is the same bytes.
  const std::string gz = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz";
  const std::string plain = test::plainCopy(gz, "writer_lazy_resnet50.json");
  const LoadResult lazy = loadTraceFile(plain), eager = loadTraceFile(gz);
  ASSERT_EQ(lazy.status, LoadStatus::Ok);
  ASSERT_EQ(eager.status, LoadStatus::Ok);
  ASSERT_TRUE(lazy.trace->lazyArgs);
  std::string pieces;
  size_t count = 0;
  writeChromeTrace(*lazy.trace, {}, [&](std::string_view piece) {
    pieces += piece;
    ++count;
  });
  EXPECT_GT(count, 2u);  // handed over in pieces, not as one string
  EXPECT_EQ(pieces, chromeTraceJson(*lazy.trace));
  const auto lines = [](const std::string& text) {
    std::multiset<std::string> out;
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
      std::string line = text.substr(from, nl - from);
      if (!line.empty() && line.back() == ',') line.pop_back();
      out.insert(std::move(line));
    }
    return out;
  };
  const std::string fromEager = chromeTraceJson(*eager.trace);
  EXPECT_NE(pieces, fromEager);                // the order differs...
  EXPECT_EQ(lines(pieces), lines(fromEager));  // ...the events do not
  EXPECT_GT(lines(pieces).size(), 10000u);
  // Read back from a file (lazy again) and written again: the same bytes.
  const std::string written = test::tempPath("writer_lazy_written.json");
  std::ofstream(written, std::ios::binary) << pieces;
  const LoadResult back = loadTraceFile(written);
  ASSERT_EQ(back.status, LoadStatus::Ok) << back.error;
  ASSERT_TRUE(back.trace->lazyArgs);
  EXPECT_EQ(comparable(*back.trace), comparable(*eager.trace));
  EXPECT_EQ(chromeTraceJson(*back.trace), pieces);
  std::remove(plain.c_str());
  std::remove(written.c_str());
}

// b/e pairs as Perfetto's slice tracker (per name, process and id) and chrome://tracing's
// importer (per category and id) pair them: an e closes the innermost open b of its key,
// which must carry the same name. Returns the pairs that do not nest so.
size_t asyncPairsThatDoNotNest(const nlohmann::json& doc, bool byName) {
  std::vector<const nlohmann::json*> events;
  for (const auto& e : doc["traceEvents"])
    if (e.value("ph", "") == "b" || e.value("ph", "") == "e") events.push_back(&e);
  std::stable_sort(events.begin(), events.end(), [](const nlohmann::json* a, const nlohmann::json* b) {
    return (*a)["ts"].get<double>() < (*b)["ts"].get<double>();
  });
  std::map<std::string, std::vector<std::string>> open;
  size_t bad = 0;
  for (const auto* e : events) {
    const std::string key =
        (*e)["pid"].dump() + "|" + (byName ? (*e)["name"].dump() : (*e)["cat"].dump()) + "|" + (*e)["id"].dump();
    std::vector<std::string>& stack = open[key];
    if ((*e)["ph"] == "b") {
      stack.push_back((*e)["name"]);
    } else if (stack.empty() || stack.back() != (*e)["name"]) {
      ++bad;
    } else {
      stack.pop_back();
    }
  }
  return bad;
}

// A plain "id" is read back as one track across processes, so per-process tracks that
// share a (category, id) are written on id2 "local"; a track whose (category, id) no other
// has keeps its plain id, as it was written before ids were scoped. Read back, every
// track is where it was, with its slices.
TEST(TraceWriter, PerProcessAsyncIdsSharedByTwoProcessesStayApart) {
  auto t = reload(R"([
    {"ph":"b","cat":"q","name":"a","id2":{"local":"5"},"pid":1,"tid":1,"ts":1},
    {"ph":"e","cat":"q","name":"a","id2":{"local":"5"},"pid":1,"tid":1,"ts":4},
    {"ph":"b","cat":"q","name":"b","id2":{"local":"5"},"pid":2,"tid":1,"ts":2},
    {"ph":"e","cat":"q","name":"b","id2":{"local":"5"},"pid":2,"tid":1,"ts":3},
    {"ph":"b","cat":"q","name":"c","id2":{"local":"6"},"pid":2,"tid":1,"ts":2},
    {"ph":"e","cat":"q","name":"c","id2":{"local":"6"},"pid":2,"tid":1,"ts":8},
    {"ph":"b","cat":"q","name":"d","id":"7","pid":1,"tid":1,"ts":1},
    {"ph":"e","cat":"q","name":"d","id":"7","pid":2,"tid":1,"ts":9}])");
  ASSERT_TRUE(t);
  const std::string json = chromeTraceJson(*t);
  std::map<std::string, std::string> idKeyOf;  // slice name -> "id" or "id2" as written
  const nlohmann::json doc = nlohmann::json::parse(json);
  for (const auto& e : doc["traceEvents"])
    if (e.value("ph", "") == "b")
      idKeyOf[e["name"]] = e.contains("id2") ? "id2 " + e["id2"].dump() : "id " + e["id"].dump();
  EXPECT_EQ(idKeyOf,
            (std::map<std::string, std::string>{
                {"a", R"(id2 {"local":"5"})"}, {"b", R"(id2 {"local":"5"})"}, {"c", R"(id "6")"}, {"d", R"(id "7")"}}));
  auto tracks = [](const Trace& tr) {
    std::multiset<std::tuple<int64_t, std::string, std::string, TimeNs, TimeNs>> out;
    for (const Track& track : tr.tracks)
      if (track.kind == TrackKind::Async)
        for (uint32_t i = 0; i < track.slices.size(); ++i)
          out.insert({tr.processes[track.process].pid.num, std::string(tr.str(track.tid.str)),
                      std::string(tr.str(track.slices.name[i])), track.slices.start[i], track.slices.dur[i]});
    return out;
  };
  auto back = reload(json);
  ASSERT_TRUE(back);
  EXPECT_EQ(tracks(*back), tracks(*t));
  EXPECT_EQ(tracks(*t).size(), 4u);
  EXPECT_EQ(back->diagnostics.count(WarningKind::UnmatchedEnd), 0u);
  EXPECT_EQ(chromeTraceJson(*back), json) << "written again, the same bytes";
}

// A merged session's ranks each have the trace-wide track of a plain id, and share its
// (category, id): one keeps the plain id, the others go on id2 "local" in their rank's
// process, and they stay apart. Rank 1 also has a per-process track of the pair in the
// same process: the plain id goes to rank 1's trace-wide track, not to the first one, so
// that the two local ones are in different processes. An id that needs escaping reads back as it was.
TEST(TraceWriter, RanksTraceWideAsyncTracksStayApartInTheSessionFile) {
  const std::string wide = R"(
    {"ph":"b","cat":"q","name":"req","id":"9\"","pid":1,"tid":1,"ts":1},
    {"ph":"e","cat":"q","name":"req","id":"9\"","pid":1,"tid":1,"ts":5},
    {"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":3})";
  const std::string local = R"(,
    {"ph":"b","cat":"q","name":"loc","id2":{"local":"9\""},"pid":1,"tid":1,"ts":2},
    {"ph":"e","cat":"q","name":"loc","id2":{"local":"9\""},"pid":1,"tid":1,"ts":3})";
  std::vector<RankPart> parts;
  for (int64_t r = 0; r < 2; ++r) {
    RankPart p;
    p.trace = reload("[" + wide + (r == 1 ? local : "") + "]");
    ASSERT_TRUE(p.trace);
    p.rank = r;
    p.offset = r * 1000;
    parts.push_back(std::move(p));
  }
  const auto session = mergeRanks(std::move(parts));
  ASSERT_TRUE(session);
  auto asyncTracks = [](const Trace& tr) {
    std::multiset<std::tuple<int64_t, std::string, TimeNs, TimeNs>> out;  // (rank, id, start, dur) per track
    for (const Track& track : tr.tracks)
      if (track.kind == TrackKind::Async) {
        std::string slices;
        for (uint32_t i = 0; i < track.slices.size(); ++i) slices += std::string(tr.str(track.slices.name[i])) + ";";
        out.insert({tr.processes[track.process].rank, std::string(tr.str(track.tid.str)) + "|" + slices,
                    track.slices.start[0], track.slices.dur[0]});
      }
    return out;
  };
  ASSERT_EQ(asyncTracks(*session).size(), 3u);
  const std::string json = chromeTraceJson(*session);
  auto back = reload(json);
  ASSERT_TRUE(back);
  EXPECT_EQ(asyncTracks(*back), asyncTracks(*session));
  EXPECT_EQ(back->diagnostics.count(WarningKind::UnmatchedEnd), 0u);
  EXPECT_EQ(chromeTraceJson(*back), json) << "written again, the same bytes";
}

TEST(TraceWriter, OverlappingAsyncSlicesGoInLanesThatViewersNest) {
  // PlaidML's queue events overlap without nesting on one async id: written on that one
  // id, chrome://tracing's importer dropped 20 of their pairs with warnings and Perfetto
  // cuts them. Each goes to a lane of its own id where it nests; nothing is lost.
  LoadResult lr = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/plaidml/mnist_mlp_2017_excerpt.log.gz");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const Trace& t = *lr.trace;
  const std::string json = chromeTraceJson(t);
  const nlohmann::json doc = nlohmann::json::parse(json);
  EXPECT_EQ(asyncPairsThatDoNotNest(doc, true), 0u);
  EXPECT_EQ(asyncPairsThatDoNotNest(doc, false), 0u);
  // Lanes were needed here (else the check above proves nothing of them).
  size_t laned = 0;
  for (const auto& e : doc["traceEvents"])
    laned += e.value("ph", "") == "b" && e["id"].is_string() &&
             e["id"].get<std::string>().find(" (lane ") != std::string::npos;
  EXPECT_GT(laned, 50u);
  // Every async slice, read back, with its name, start and duration.
  auto asyncSlices = [](const Trace& tr) {
    std::multiset<std::tuple<std::string, TimeNs, TimeNs>> out;
    for (const Track& track : tr.tracks)
      if (track.kind == TrackKind::Async)
        for (uint32_t i = 0; i < track.slices.size(); ++i)
          out.insert({std::string(tr.str(track.slices.name[i])), track.slices.start[i], track.slices.dur[i]});
    return out;
  };
  auto back = reload(json);
  ASSERT_TRUE(back);
  const auto before = asyncSlices(t);
  EXPECT_GT(before.size(), 900u);
  EXPECT_EQ(asyncSlices(*back), before);
  EXPECT_EQ(back->sliceCount(), t.sliceCount());
  // The lanes fold back onto their id's track: the same async tracks, and written again,
  // the same bytes.
  auto asyncTracks = [](const Trace& tr) {
    std::multiset<std::pair<std::string, size_t>> out;
    for (const Track& track : tr.tracks)
      if (track.kind == TrackKind::Async) out.insert({std::string(tr.str(track.tid.str)), track.slices.size()});
    return out;
  };
  EXPECT_EQ(asyncTracks(*back), asyncTracks(t));
  // Written again, the same events (the PlaidML loader made its tracks in another order
  // than the JSON loader meets them, so the order differs, and so do the arrows' ids:
  // an arrow is its two ends without the id). Compared as sets of lines: an EXPECT_EQ on
  // the two 2 MB texts would run out of memory printing their diff.
  auto lines = [](const std::string& text) {
    std::multiset<std::string> out;
    std::map<uint64_t, std::string> arrowStart;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == ',') line.pop_back();
      if (line.starts_with("{\"ph\": \"s\"") || line.starts_with("{\"ph\": \"f\"")) {
        nlohmann::json e = nlohmann::json::parse(line);
        const uint64_t id = e["id"];
        e.erase("id");
        if (e["ph"] == "s") arrowStart[id] = e.dump();
        else out.insert(arrowStart[id] + " -> " + e.dump());
        continue;
      }
      out.insert(line);
    }
    return out;
  };
  EXPECT_TRUE(lines(chromeTraceJson(*back)) == lines(json));
  EXPECT_EQ(back->diagnostics.count(WarningKind::UnmatchedEnd), 0u);
  EXPECT_EQ(back->diagnostics.count(WarningKind::UnterminatedBegin),
            t.diagnostics.count(WarningKind::UnterminatedBegin));
}

// What Perfetto's JSON importer keeps of a file, by the rules of its source
// (importers/json/json_trace_parser_impl.cc, importers/common/slice_tracker.cc): a ph X
// that partially overlaps the slice open on its thread is dropped; b/e/n events of pid 0
// and thread-scoped instants of tid 0 are dropped; a flow end with bp "e" binds to the
// slice open on its thread at its time, after the slices that start then.
struct PerfettoView {
  size_t droppedSlices = 0, droppedOther = 0, flowEndsWithoutTheirSlice = 0, flowEnds = 0;
};
PerfettoView perfettoView(const nlohmann::json& doc) {
  PerfettoView v;
  std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> threads;  // (pid, tid) -> (ts, dur) ns
  std::map<std::string, std::set<int64_t>> starts;
  const auto ns = [](const nlohmann::json& us) { return std::llround(us.get<double>() * 1000); };
  for (const auto& e : doc["traceEvents"]) {
    const std::string ph = e.value("ph", ""), key = e["pid"].dump() + "/" + e["tid"].dump();
    if (ph == "X") {
      threads[key].push_back({ns(e["ts"]), ns(e["dur"])});
      starts[key].insert(ns(e["ts"]));
    } else if ((ph == "b" || ph == "e" || ph == "n") && e["pid"] == 0) {
      ++v.droppedOther;
    } else if (ph == "i" && e.value("s", "t") == "t" && e["tid"] == 0) {
      ++v.droppedOther;
    }
  }
  for (const auto& e : doc["traceEvents"])
    if (e.value("ph", "") == "f") {
      ++v.flowEnds;
      const auto it = starts.find(e["pid"].dump() + "/" + e["tid"].dump());
      v.flowEndsWithoutTheirSlice += it == starts.end() || !it->second.count(ns(e["ts"]));
    }
  for (auto& [key, slices] : threads) {
    std::stable_sort(slices.begin(), slices.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<int64_t, int64_t>> open;
    for (const auto& [ts, dur] : slices) {
      bool dropped = false;
      while (!open.empty()) {
        const int64_t end = open.back().first + open.back().second;
        if (end < ts || (end == ts && !(open.back().second == 0 && dur == 0))) {
          open.pop_back();
          continue;
        }
        dropped = ts < end && ts + dur > end;
        break;
      }
      if (dropped) ++v.droppedSlices;
      else open.push_back({ts, dur});
    }
  }
  return v;
}

TEST(TraceWriter, PerfettoKeepsAsMuchOfTheWrittenFileAsOfTheSource) {
  // HTA's simple_add (Kineto, µs since the epoch) and TraceLens' MI300X Qwen (ns-exact
  // relative times): the written file, with its critical path's arrows, loses no more
  // slices than the tool's own file and no event of another kind, and every arrow ends
  // where a slice of its thread starts (Perfetto binds it to that slice).
  for (const std::string& file : {kHta + "critical_path/simple_add.json.gz",
                                  std::string(OPSCOPE_SOURCE_DIR "/tests/data/tracelens/"
                                                                 "mi300_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz")}) {
    SCOPED_TRACE(file);
    LoadResult lr = loadTraceFile(file);
    ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
    const auto window = criticalPathWindowOfTrace(*lr.trace);
    ASSERT_TRUE(window);
    const CriticalPath path = computeCriticalPath(*lr.trace, *window);
    ASSERT_TRUE(path.ok()) << path.error;
    TraceWriteOptions o;
    o.criticalPath = &path;
    const PerfettoView source = perfettoView(nlohmann::json::parse(test::gunzip(test::readFile(file))));
    const PerfettoView written = perfettoView(nlohmann::json::parse(chromeTraceJson(*lr.trace, o)));
    EXPECT_EQ(written.droppedSlices, source.droppedSlices);
    EXPECT_EQ(written.droppedOther, 0u);
    EXPECT_GT(written.flowEnds, 100u);
    EXPECT_EQ(written.flowEndsWithoutTheirSlice, 0u);
  }
}

TEST(TraceWriter, OtherToolsTracesReadBackWithTheirLaunchLinksAndDeviceKind) {
  // Written back from what other loaders build, a trace reads back with the same summary:
  // Nsight Systems and XPlane hold their correlation ids in args already; a PlaidML log's
  // launches and kernels are linked by ids its loader gives (written as "correlation"),
  // and its devices are CPUs (written as "deviceKind"). Only a PlaidML stream's name
  // differs ("CPU device 0 · stream 0" reads back as "CPU device 1000 · kernels": its
  // kernels' args name the device by a string, and no arg names the stream).
  for (const char* name : {"plaidml/mnist_mlp_2017_excerpt.log.gz", "nsys/mordred_quadro_rtx6000_2021.sqlite",
                           "xplane/jax08_conv_mi300_tw003.xplane.pb"}) {
    SCOPED_TRACE(name);
    LoadResult lr = loadTraceFile(std::string(OPSCOPE_SOURCE_DIR "/tests/data/") + name);
    ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
    const std::string json = chromeTraceJson(*lr.trace);
    auto back = reload(json);
    ASSERT_TRUE(back);
    // One launch arrow per launch link, for viewers (these loaders make no flows).
    size_t arrows = 0;
    const nlohmann::json doc = nlohmann::json::parse(json);
    for (const auto& e : doc["traceEvents"]) arrows += e.value("ph", "") == "s" && e.value("cat", "") == "ac2g";
    EXPECT_EQ(arrows, lr.trace->links.launchToGpu.size());
    nlohmann::json a = comparable(*lr.trace), b = comparable(*back);
    EXPECT_GT(a["linked_gpu_events"].get<int64_t>(), 10);
    if (std::string(name).starts_with("plaidml")) {
      EXPECT_EQ(a["device_kind"], "CPU device");
      ASSERT_EQ(a["streams"].size(), b["streams"].size());
      for (auto& s : a["streams"]) s.erase("name");
      for (auto& s : b["streams"]) s.erase("name");
    }
    EXPECT_EQ(b, a);
  }
}

TEST(TraceWriter, EveryLaunchLinkIsOneArrow) {
  // TensorBoard's ResNet-50 trace draws its 9,096 launches with arrows of category
  // "async", not Kineto's ac2g. Written, every link is one arrow: the file's where it has
  // one, else an ac2g (traces linked by correlation ids alone), never both.
  LoadResult lr = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const nlohmann::json doc = nlohmann::json::parse(chromeTraceJson(*lr.trace));
  std::map<uint64_t, std::string> starts;
  std::map<std::string, size_t> arrows;  // "s end -> f end" -> how many
  for (const auto& e : doc["traceEvents"]) {
    const std::string ph = e.value("ph", "");
    if (ph != "s" && ph != "f") continue;
    const std::string end = e["pid"].dump() + "/" + e["tid"].dump() + "@" + e["ts"].dump();
    if (ph == "s") starts[e["id"].get<uint64_t>()] = end;
    else ++arrows[starts[e["id"].get<uint64_t>()] + " -> " + end];
  }
  size_t twice = 0;
  for (const auto& [pair, n] : arrows) twice += n > 1;
  EXPECT_EQ(twice, 0u);
  EXPECT_GE(arrows.size(), lr.trace->links.launchToGpu.size());
  EXPECT_EQ(lr.trace->links.launchToGpu.size(), 9096u);
}

}  // namespace
}  // namespace opscope
