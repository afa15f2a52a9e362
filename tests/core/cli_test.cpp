// The opscope binary's command line: exit codes and the one-line errors.
#include <gtest/gtest.h>
#include <filesystem>

#include <fstream>
#include <sstream>

#include <sqlite3.h>
#include <zlib.h>

#include <array>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "analysis/overhead_model.h"
#include "test_support.h"

namespace opscope {
namespace {

struct CliRun {
  int code;
  std::string out;
};

CliRun runCli(const std::string& args) {
  // The offscreen platform: GUI modes (--screenshot) must run without a display.
  const std::string cmd = "QT_QPA_PLATFORM=offscreen " + std::string(OPSCOPE_BINARY) + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

TEST(Cli, SummaryOfTheBundledSample) {
  CliRun r = runCli("summary --json " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["kernels"].get<int>(), 0);
  EXPECT_EQ(j["linked_gpu_events"], j["gpu_events"]);
  EXPECT_GE(j["iterations"].get<int>(), 2);
  CliRun text = runCli("summary " + kSample);
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("GPU streams"), std::string::npos) << text.out;
  // Two counts, each named: records read from the file and slices (what the status bar
  // and the timeline count).
  EXPECT_NE(text.out.find(std::to_string(j["events"].get<uint64_t>()) + " events read, " +
                          std::to_string(j["slices"].get<uint64_t>()) + " slices"),
            std::string::npos)
      << text.out;
}

TEST(Cli, ExitCodes) {
  EXPECT_EQ(runCli("--bogus").code, 2);  // no command word: GUI options, checked before any window
  EXPECT_EQ(runCli("--screenshot").code, 2);
  EXPECT_EQ(runCli("frobnicate x").code, 2);
  EXPECT_EQ(runCli("summary").code, 2);
  EXPECT_EQ(runCli("summary --bogus " + kSample).code, 2);
  EXPECT_EQ(runCli("--help").code, 0);
  CliRun missing = runCli("summary /nonexistent.json");
  EXPECT_EQ(missing.code, 3);
  EXPECT_EQ(std::count(missing.out.begin(), missing.out.end(), '\n'), 1) << missing.out;
  const std::string png = test::tempPath("x.png");
  {
    FILE* f = std::fopen(png.c_str(), "wb");
    std::fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
    std::fclose(f);
  }
  CliRun notJson = runCli("summary " + png);
  EXPECT_EQ(notJson.code, 4);
  EXPECT_NE(notJson.out.find("PNG"), std::string::npos) << notJson.out;
  std::remove(png.c_str());
}

TEST(Cli, IterationWindowAndMarker) {
  CliRun all = runCli("summary --json " + kSample);
  CliRun one = runCli("summary --json --iterations 1:2 " + kSample);
  ASSERT_EQ(one.code, 0) << one.out;
  const auto a = nlohmann::json::parse(all.out), o = nlohmann::json::parse(one.out);
  EXPECT_EQ(o["iterations"], 2);
  EXPECT_LT(o["kernels"].get<int>(), a["kernels"].get<int>());
  EXPECT_TRUE(o.contains("window_us"));
  EXPECT_EQ(runCli("summary --iterations 999 " + kSample).code, 4);
  EXPECT_EQ(runCli("summary --iterations x " + kSample).code, 2);
  EXPECT_EQ(runCli("summary --iterations " + kSample).code, 2);
  CliRun marked = runCli("summary --json --iteration-marker aten::embedding " + kSample);
  ASSERT_EQ(marked.code, 0) << marked.out;
  EXPECT_EQ(nlohmann::json::parse(marked.out)["marker_iterations"].size(), a["iterations"].get<size_t>());
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

// Width and height from a PNG's IHDR chunk.
std::pair<uint32_t, uint32_t> pngSize(const std::string& bytes) {
  auto be32 = [&](size_t at) {
    return (uint32_t(uint8_t(bytes[at])) << 24) | (uint32_t(uint8_t(bytes[at + 1])) << 16) |
           (uint32_t(uint8_t(bytes[at + 2])) << 8) | uint32_t(uint8_t(bytes[at + 3]));
  };
  if (bytes.size() < 24 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return {0, 0};
  return {be32(16), be32(20)};
}

TEST(Cli, ScreenshotWritesAFixedSizePngOrAVectorPdf) {
  const std::string png = test::tempPath("shot.png"), pdf = test::tempPath("shot.pdf");
  CliRun r = runCli("--screenshot " + png + " --select aten::linear --range 0:5000 " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(pngSize(test::readFile(png)), (std::pair<uint32_t, uint32_t>{1600, 1000}));
  r = runCli("--screenshot " + png + " --size 1000x700 " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(pngSize(test::readFile(png)), (std::pair<uint32_t, uint32_t>{1000, 700}));
  r = runCli("--screenshot " + pdf + " " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(test::readFile(pdf).substr(0, 5), "%PDF-");
  EXPECT_EQ(runCli("--screenshot " + png + " --select no-such-event " + kSample).code, 4);
  EXPECT_EQ(runCli("--screenshot " + png + " /nonexistent.json").code, 3);
  EXPECT_EQ(runCli("--screenshot " + png + " --range 5:1 " + kSample).code, 2);
  EXPECT_EQ(runCli("--select x " + kSample).code, 2);  // only with --screenshot
  std::remove(png.c_str());
  std::remove(pdf.c_str());
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Cli, HeadlessCommandsNeedNoGuiModuleAndItsAbsenceIsOneLine) {
  // The binary alone, without opscope-gui.so beside it.
  const std::string dir = test::tempPath("lonely");
  ASSERT_EQ(std::system(("mkdir -p " + dir + " && cp " + std::string(OPSCOPE_BINARY) + " " + dir + "/").c_str()), 0);
  const std::string bin = dir + "/opscope";
  FILE* p = ::popen((bin + " summary --json " + kSample + " 2>&1").c_str(), "r");
  char buf[256];
  std::string out;
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(::pclose(p)), 0) << out;
  p = ::popen((bin + " --screenshot " + dir + "/x.png " + kSample + " 2>&1").c_str(), "r");
  out.clear();
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(::pclose(p)), 1);
  EXPECT_NE(out.find("cannot load the GUI module"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Cli, ExportWritesAnalysisDataAsJsonAndCsv) {
  CliRun r = runCli("export --chart overview --format json --batch-size 64 " + kSample + " -o -");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  double parts = 0;
  for (const auto& p : j["breakdown"]) parts += p["us"].get<double>();
  EXPECT_NEAR(parts, j["wall_us"].get<double>(), 1e-6);
  EXPECT_EQ(j["iterations"], 16);
  EXPECT_GT(j["samples_per_second"].get<double>(), 0);
  EXPECT_EQ(j["streams"].size(), 3u);

  const std::string dir = test::tempPath("export_dir");
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  const std::string csv = dir + "/kernels.csv";
  r = runCli("export --chart kernel-stats --format csv --top 4 --iteration 3 " + kSample + " -o " + csv);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string text = test::readFile(csv);
  EXPECT_EQ(text.rfind("name,kind,class,count,total_us,mean_us,min_us,max_us,std_us,share\n", 0), 0u) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
  // Written through a temporary file: nothing else is left in the folder.
  FILE* ls = ::popen(("ls -A " + dir).c_str(), "r");
  char buf[512];
  std::string listing;
  while (size_t n = std::fread(buf, 1, sizeof buf, ls)) listing.append(buf, n);
  ::pclose(ls);
  EXPECT_EQ(listing, "kernels.csv\n");

  EXPECT_EQ(runCli("export --chart pie --format json " + kSample + " -o -").code, 2);
  EXPECT_EQ(runCli("export --chart overview --format svg " + kSample + " -o -").code, 2);
  EXPECT_EQ(runCli("export --chart overview --format json " + kSample).code, 2);  // no -o
  EXPECT_EQ(runCli("export --chart overview --format json --iteration 99 " + kSample + " -o -").code, 4);
  EXPECT_EQ(runCli("export --chart overview --format json /nonexistent.json -o -").code, 3);
  EXPECT_EQ(runCli("export --chart overview --format json " + kSample + " -o /nonexistent-dir/x.json").code, 3);
  std::filesystem::remove_all(dir);
}

TEST(Cli, ExportEveryChartsDataAgreesAcrossCharts) {
  const std::string it = " --iteration 2 " + kSample + " -o -";
  CliRun b = runCli("export --chart breakdown --format json" + it);
  ASSERT_EQ(b.code, 0) << b.out;
  CliRun k = runCli("export --chart kernel-stats --format json" + it);
  ASSERT_EQ(k.code, 0) << k.out;
  const auto bj = nlohmann::json::parse(b.out), kj = nlohmann::json::parse(k.out);
  // Two analyses, one device time: the tree's total is the kernel statistics' total.
  EXPECT_NEAR(bj["device_time_us"].get<double>(), kj["gpu_total_us"].get<double>(), 1e-6);
  double streams = 0;
  for (const auto& s : bj["streams"]) streams += s["time_us"].get<double>();
  EXPECT_NEAR(streams, bj["device_time_us"].get<double>(), 1e-6);

  CliRun m = runCli("export --chart op-kernels --format json --top 3" + it);
  ASSERT_EQ(m.code, 0) << m.out;
  const auto mj = nlohmann::json::parse(m.out);
  ASSERT_EQ(mj["ops"].size(), 3u);
  for (const auto& op : mj["ops"])
    for (const auto& v : op["variants"]) {
      double f = 0;
      for (const auto& seg : v["segments"]) f += seg["fraction"].get<double>();
      EXPECT_NEAR(f, 1.0, 1e-9);
    }
  CliRun table = runCli("export --chart op-kernels --op aten::linear --by-shape --format csv" + it);
  ASSERT_EQ(table.code, 0) << table.out;
  EXPECT_EQ(table.out.rfind("shapes,calls,cpu_time_us,gpu_time_us,kernel,class,count,total_us,mean_us\n", 0), 0u);

  CliRun o = runCli("export --chart overheads --format json --cpu-event-overhead-us 1.5" + it);
  ASSERT_EQ(o.code, 0) << o.out;
  const auto oj = nlohmann::json::parse(o.out);
  EXPECT_TRUE(oj["t1"].is_array());
  EXPECT_EQ(oj["t1"].size(), 2u);
  EXPECT_TRUE(oj["t2"].is_object());
  EXPECT_TRUE(oj["t4"].is_object());
  EXPECT_TRUE(oj["launches"].is_object());
  EXPECT_DOUBLE_EQ(oj["profiler_costs"]["cpu_event_overhead_us"].get<double>(), 1.5);
  EXPECT_EQ(oj["profiler_costs_estimate"]["cpu_event_overhead"], "given");
  // The saved file loads back as the prediction pane will read it.
  const std::string saved = test::tempPath("overheads.json");
  ASSERT_EQ(runCli("export --chart overheads --format json" + std::string(" ") + kSample + " -o " + saved).code, 0);
  std::string error;
  EXPECT_TRUE(parseOverheadModel(test::readFile(saved), error)) << error;
  std::remove(saved.c_str());

  CliRun s = runCli("export --chart streams --format json" + it);
  ASSERT_EQ(s.code, 0) << s.out;
  const auto sj = nlohmann::json::parse(s.out);
  for (const auto& st : sj["streams"])
    EXPECT_NEAR(st["busy_us"].get<double>() + st["idle_us"].get<double>(), sj["wall_us"].get<double>(), 1e-6);

  EXPECT_EQ(runCli("export --chart overheads --format json --cpu-event-overhead-us -1" + it).code, 2);
  EXPECT_EQ(runCli("export --chart overview --format json --op x" + it).code, 2);
  EXPECT_EQ(runCli("export --chart op-kernels --format json --by-shape" + it).code, 2);
  EXPECT_EQ(runCli("export --chart streams --format png --size 10x10 " + kSample + " -o /tmp/x.png").code, 2);
}

TEST(Cli, ExportDrawsChartsHeadlessAsPdfPngAndSvg) {
  const std::string dir = test::tempPath("export_pictures");
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  for (const char* chart : {"overview", "breakdown", "op-kernels", "kernel-stats", "overheads", "streams", "ranks"}) {
    for (const char* format : {"pdf", "png", "svg"}) {
      const std::string out = dir + "/" + chart + "." + format;
      // No display: the module switches to the offscreen platform itself.
      CliRun r = runCli(std::string("export --chart ") + chart + " --format " + format + " --size 1000x700 " + kSample +
                        " -o " + out);
      ASSERT_EQ(r.code, 0) << chart << " " << format << ": " << r.out;
      const std::string bytes = test::readFile(out);
      EXPECT_GT(bytes.size(), 2000u) << out;
      if (std::string(format) == "pdf") {
        EXPECT_EQ(bytes.rfind("%PDF-", 0), 0u);
      }
      if (std::string(format) == "png") {
        EXPECT_EQ(bytes.rfind("\x89PNG", 0), 0u);
        // IHDR width and height, big-endian at bytes 16..23.
        auto be = [&](size_t at) {
          return (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at])) << 24) |
                 (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 1])) << 16) |
                 (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 2])) << 8) |
                 static_cast<uint8_t>(bytes[at + 3]);
        };
        EXPECT_EQ(be(16), 1000u);
        EXPECT_EQ(be(20), 700u);
      }
      if (std::string(format) == "svg") {
        EXPECT_NE(bytes.find("<svg"), std::string::npos);
      }
    }
  }
  // --dpi scales the PNG's pixels.
  const std::string big = dir + "/big.png";
  ASSERT_EQ(runCli("export --chart overview --format png --size 1000x700 --dpi 192 " + kSample + " -o " + big).code, 0);
  const std::string bytes = test::readFile(big);
  EXPECT_EQ(static_cast<uint8_t>(bytes[18]) * 256 + static_cast<uint8_t>(bytes[19]), 2000);
  EXPECT_EQ(runCli("export --chart overview --format pdf " + kSample + " -o /nonexistent-dir/x.pdf").code, 3);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

// The contract other tools rely on: predict --replay --json FILE.
// Two ranks: the sample (distributedInfo rank 0) and a copy made rank 1.
std::string twoRankFolder(const std::string& name) {
  const std::string dir = test::tempPath(name);
  test::writeTwoRankFolder(kSample, dir);
  return dir;
}

TEST(Cli, SummaryOfAFolderOfRanksIsTheMultiRankContract) {
  const std::string dir = twoRankFolder("ranks_cli");
  const CliRun r = runCli("summary --json " + dir);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "multi-rank");
  EXPECT_EQ(j["world_size"], 2);
  ASSERT_EQ(j["ranks"].size(), 2u);
  for (int rank = 0; rank < 2; ++rank) {
    const std::string file = dir + (rank == 0 ? "/job_rank0.json.gz" : "/job_rank1.json");
    const CliRun one = runCli("summary --json " + file);
    ASSERT_EQ(one.code, 0);
    EXPECT_EQ(j["ranks"][rank], nlohmann::json::parse(one.out)) << "rank " << rank;
    EXPECT_EQ(j["ranks"][rank]["rank"], rank);
  }
  ASSERT_EQ(j["iteration_us"].size(), 2u);
  EXPECT_EQ(j["iteration_us"][0], j["iteration_us"][1]);  // the same run twice
  EXPECT_TRUE(j["stragglers"].empty());
  EXPECT_EQ(j["clock_alignment"]["offsets"][1]["offset_us"], 0.0);
  // The same files named one by one, and as a glob, give the same summary.
  EXPECT_EQ(runCli("summary --json " + dir + "/job_rank1.json " + dir + "/job_rank0.json.gz").out, r.out);
  EXPECT_EQ(runCli("summary --json '" + dir + "/job_rank*'").out, r.out);
  // The readable form lists both ranks.
  const CliRun text = runCli("summary " + dir);
  EXPECT_NE(text.out.find("2 ranks of world size 2"), std::string::npos) << text.out;
  // export --chart ranks: each rank's iterations, in the merged session.
  const CliRun ranks = runCli("export --chart ranks --format json " + dir + " -o -");
  ASSERT_EQ(ranks.code, 0) << ranks.out;
  const auto rj = nlohmann::json::parse(ranks.out);
  ASSERT_EQ(rj["ranks"].size(), 2u);
  EXPECT_EQ(rj["ranks"][1]["iterations"], j["ranks"][1]["iterations"]);
  std::filesystem::remove_all(dir);
}

TEST(Cli, VersionNamesTheLibrariesItRunsWith) {
  const CliRun r = runCli("--version");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("opscope 0.", 0), 0u) << r.out;
  // Run-time versions: zlib and SQLite as the libraries report them, Qt from the GUI module.
  EXPECT_NE(r.out.find(std::string("zlib ") + zlibVersion()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string("SQLite ") + sqlite3_libversion()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Qt 6."), std::string::npos) << r.out;
}

TEST(Cli, MultiRankBadInputIsOneLine) {
  const std::string dir = test::tempPath("ranks_bad");
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  CliRun r = runCli("summary " + dir);
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("no trace files in the folder"), std::string::npos) << r.out;
  EXPECT_EQ(runCli("summary --iterations 0 " + dir).code, 2);
  EXPECT_EQ(runCli("summary --straggler-pct x " + dir).code, 2);
  EXPECT_EQ(runCli("summary --jobs 0 " + dir).code, 2);
  std::ofstream(dir + "/t.jsonl") << "{\"file\": \"a\", \"rank\": 0}\nnot json\n";
  r = runCli("summary " + dir + "/t.jsonl");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.out.find("line 2: not JSON"), std::string::npos) << r.out;
  // Only broken traces: nothing to summarise.
  std::ofstream(dir + "/a_rank0.json") << "garbage";
  std::ofstream(dir + "/a_rank1.json") << "nope";
  r = runCli("summary " + dir + "/a_rank0.json " + dir + "/a_rank1.json");
  EXPECT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.out.find("no rank could be read"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, PredictReplayJsonContract) {
  CliRun r = runCli("predict --replay --json " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["gpu"].is_string());
  EXPECT_EQ(j["gpu"], "A100-SXM4-80GB");  // from the trace's deviceProperties
  ASSERT_TRUE(j["error_pct_mean"].is_number());
  EXPECT_LE(j["error_pct_mean"].get<double>(), 5.0);
  ASSERT_TRUE(j["iterations"].is_array());
  ASSERT_EQ(j["iterations"].size(), 16u);  // one row per ProfilerStep
  for (size_t i = 0; i < j["iterations"].size(); ++i) {
    const auto& it = j["iterations"][i];
    EXPECT_EQ(it["index"].get<size_t>(), i);
    ASSERT_TRUE(it["measured_us"].is_number());
    ASSERT_TRUE(it["predicted_us"].is_number());
    EXPECT_NEAR(it["predicted_us"].get<double>(), it["measured_us"].get<double>(),
                0.05 * it["measured_us"].get<double>());
  }
  EXPECT_FALSE(j.contains("ops"));  // replay models nothing
}

TEST(Cli, PredictWithModelsMarksOpsWithoutOne) {
  CliRun r = runCli("predict --gpu H100-SXM --json " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gpu"], "H100-SXM");
  EXPECT_EQ(j["gpu_source"], "--gpu");
  ASSERT_TRUE(j["ops"].is_array());
  ASSERT_FALSE(j["ops"].empty());
  size_t modelled = 0, unmodelled = 0, sampledOut = 0;
  std::array<size_t, 3> bySize{};
  for (const auto& op : j["ops"]) {
    ASSERT_TRUE(op["model"].is_string());
    if (op["model"] == "no model") {
      EXPECT_TRUE(op["predicted_us"].is_null());
      ++unmodelled;
    } else {
      EXPECT_GT(op["predicted_us"].get<double>(), 0);
      const double m = op["measured_us"].get<double>();
      if (m <= 1.0) {
        ++sampledOut;  // Kineto's sampled-out ops: not compared
        continue;
      }
      ++modelled;
      ++bySize[m < 20 ? 0 : m <= 200 ? 1 : 2];
    }
  }
  EXPECT_GT(modelled, 0u);
  EXPECT_EQ(j["op_error"]["count"].get<size_t>(), modelled);
  EXPECT_EQ(j["sampled_out_ops"].get<size_t>(), sampledOut);
  // GMAE by the op's measured size: the three buckets partition the compared ops.
  const char* keys[3] = {"lt_20us", "20_to_200us", "gt_200us"};
  for (size_t b = 0; b < 3; ++b) {
    const auto& e = j["op_error_by_size"][keys[b]];
    EXPECT_EQ(e["count"].get<size_t>(), bySize[b]) << keys[b];
    EXPECT_EQ(e["gmae_pct"].is_null(), bySize[b] == 0) << keys[b];
  }
  // Op types: figures null where nothing of the type was compared, never 0.
  for (const auto& t : j["op_types"]) {
    ASSERT_TRUE(t["error_by_size"].is_object());
    if (t["modelled"].get<size_t>() == 0) {
      EXPECT_TRUE(t["predicted_us"].is_null()) << t["name"];
      EXPECT_TRUE(t["error"]["gmae_pct"].is_null()) << t["name"];
      EXPECT_EQ(t["model"], "no model");
    }
    if (t["error"]["count"].get<size_t>() > 0) {
      EXPECT_TRUE(t["error"]["gmae_pct"].is_number());
    }
  }
  EXPECT_EQ(j["iterations"].size(), 16u);
  (void)unmodelled;
  // Iterations end at the GPU drain (step_us is the ProfilerStep's own length); the
  // host model's self-check (measured kernels) is reported beside the models' run.
  EXPECT_EQ(j["kernels"], "models");
  for (const auto& it : j["iterations"]) EXPECT_GE(it["measured_us"].get<double>(), it["step_us"].get<double>());
  ASSERT_TRUE(j["self_check"].is_object());
  EXPECT_EQ(j["self_check"]["kernels"], "measured");
  ASSERT_EQ(j["self_check"]["iterations"].size(), j["iterations"].size());
  double selfSum = 0;
  for (const auto& it : j["self_check"]["iterations"]) selfSum += std::abs(it["error_pct"].get<double>());
  EXPECT_NEAR(j["self_check"]["error_pct_mean"].get<double>(), selfSum / 16, 0.01);
  // --kernels measured makes that the main run: same iterations as the self-check.
  CliRun measured = runCli("predict --gpu H100-SXM --kernels measured --json " + kSample);
  ASSERT_EQ(measured.code, 0) << measured.out;
  const auto mj = nlohmann::json::parse(measured.out);
  EXPECT_EQ(mj["kernels"], "measured");
  for (size_t i = 0; i < 16; ++i)
    EXPECT_EQ(mj["iterations"][i]["predicted_us"], j["self_check"]["iterations"][i]["predicted_us"]) << i;
  EXPECT_EQ(runCli("predict --kernels fast " + kSample).code, 2);
  // --calibrate: what was learned, and from where; the sample's statistics are too thin
  // to learn from (fewer than 20 samples), so the datasheet stays and says so.
  CliRun cal = runCli("predict --gpu H100-SXM --calibrate --json " + kSample);
  ASSERT_EQ(cal.code, 0) << cal.out;
  const auto cj = nlohmann::json::parse(cal.out);
  ASSERT_TRUE(cj["calibration"].is_object());
  EXPECT_TRUE(cj["calibration"]["out_of_sample"].get<bool>());
  EXPECT_EQ(cj["calibration"]["floor_samples"], 0);
  EXPECT_DOUBLE_EQ(cj["calibration"]["dram_efficiency"].get<double>(), 1.0);
  EXPECT_LT(cj["op_error"]["count"].get<size_t>(), j["op_error"]["count"].get<size_t>());  // iteration 0 left out
  EXPECT_FALSE(j.contains("calibration"));
  EXPECT_EQ(runCli("predict --replay --calibrate " + kSample).code, 2);
  EXPECT_EQ(runCli("predict --replay --kernels measured " + kSample).code, 2);

  // Overheads saved by export feed predict; CSV rows for every op.
  const std::string overheads = test::tempPath("predict_overheads.json");
  ASSERT_EQ(runCli("export --chart overheads --format json " + kSample + " -o " + overheads).code, 0);
  CliRun csv = runCli("predict --overheads " + overheads + " --csv " + kSample);
  ASSERT_EQ(csv.code, 0) << csv.out;
  EXPECT_EQ(csv.out.rfind("name,ts_us,measured_us,predicted_us,error_pct,model,input_dims\n", 0), 0u);
  EXPECT_EQ(static_cast<size_t>(std::count(csv.out.begin(), csv.out.end(), '\n')), j["ops"].size() + 1);
  CliRun text = runCli("predict " + kSample);
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("GMAE"), std::string::npos) << text.out;
}

// A trace and the preset it gets: deviceProperties, else its kernels' architecture,
// else none (and predict says so instead of guessing a V100).
TEST(Cli, PredictPicksThePresetFromTheTraceOrAsks) {
  const auto write = [](const std::string& name, const std::string& props, const std::string& kernel) {
    const std::string path = test::tempPath(name);
    FILE* f = std::fopen(path.c_str(), "wb");
    const std::string json = "{" + props + R"("traceEvents":[
      {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
      {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":50,"args":{"External id":1}},
      {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":7}},
      {"ph":"X","cat":"kernel","name":")" +
                             kernel +
                             R"(","pid":0,"tid":7,"ts":30,"dur":40,"args":{"correlation":7,"device":0,"stream":7}}]})";
    std::fputs(json.c_str(), f);
    std::fclose(f);
    return path;
  };
  const std::string byArch = write("arch_only.json", "", "sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n");
  CliRun a = runCli("predict --json " + byArch);
  ASSERT_EQ(a.code, 0) << a.out;
  const auto j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["gpu"].get<std::string>().rfind("A100", 0), 0u) << j["gpu"];
  EXPECT_NE(j["gpu_source"].get<std::string>().find("sm80"), std::string::npos) << j["gpu_source"];

  const std::string mtia = write("mtia.json", R"("deviceProperties":[{"name":"ARTEMIS"}],)", "mtia_kernel");
  CliRun m = runCli("predict " + mtia);
  EXPECT_EQ(m.code, 2) << m.out;
  EXPECT_EQ(std::count(m.out.begin(), m.out.end(), '\n'), 1) << m.out;
  EXPECT_NE(m.out.find("no GPU preset matches"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("ARTEMIS"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("--gpu"), std::string::npos) << m.out;
  // The replay needs no preset; naming one always works.
  EXPECT_EQ(runCli("predict --replay " + mtia).code, 0);
  EXPECT_EQ(runCli("predict --gpu V100 " + mtia).code, 0);
  // Calibration fits on the trace's own GPU: with none known it is refused, in the words
  // the Prediction dock shows (perf/prediction_policy.h decides for both).
  CliRun c = runCli("predict --gpu V100 --calibrate " + mtia);
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_EQ(c.out.rfind("opscope predict: --calibrate: calibrating on V100 needs the trace's own GPU to fit on, and no "
                        "preset matches it (device \"ARTEMIS\" matches no preset and none has its architecture; the "
                        "presets: V100, ",
                        0),
            0u)
      << c.out;
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 1) << c.out;
}

// Real traces recorded on an H100 (tests/data/pytorch_h100): the preset comes from the
// trace's deviceProperties, the modelled iteration stays within 10 % of the measured
// one (the issue's target; measured 4.5 % transformer, 5.4 % DDP at the time of
// writing), and a bf16 transformer priced on a V100 (no bf16 tensor cores) takes far
// longer than on the H100 it ran on, by what its GPU work takes there (the V100 ratio
// was 3.8x while autocast's float-typed aten::linear wrappers were priced at the FP32
// peak; with what ran inside them, bf16 GEMMs, it is 2.0x). ResNet-50 is priced by the convolution, batch norm
// and pooling models (99 % of its GPU time; 15 % before them, when it measured 1.4 %
// only because its measured times stood in): at the datasheet's peaks every iteration
// comes out faster than measured (a roofline is a lower bound; 16.8 %), calibrated on
// its first iteration it is within 10 % (2.7 %; the other two alone: see the
// calibration test).
TEST(Cli, PredictOnRealH100TracesPicksTheH100AndFollowsTheGpu) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/";
  const auto meanPredicted = [](const nlohmann::json& j) {
    double sum = 0;
    for (const auto& it : j["iterations"]) sum += it["predicted_us"].get<double>();
    return sum / j["iterations"].size();
  };
  double h100 = 0, h100Gpu = 0;
  for (std::string name : {"h100_resnet50_train --calibrate", "h100_transformer_bf16", "h100_ddp_embedding_mlp"}) {
    const bool resnet = name.starts_with("h100_resnet50");
    if (resnet) {
      // Rooflines alone (--rooflines: not the preset's built-in convolution table;
      // --datasheet: not the learned efficiency curves, which are fitted on this trace).
      CliRun datasheet =
          runCli("predict --json --rooflines --datasheet " + dir + "h100_resnet50_train.pt.trace.json.gz");
      ASSERT_EQ(datasheet.code, 0) << datasheet.out;
      const auto j = nlohmann::json::parse(datasheet.out);
      EXPECT_TRUE(j["microbenchmarks"]["convolution"].is_null());
      EXPECT_TRUE(j["microbenchmarks"]["gemm"].is_null());
      EXPECT_GT(j["error_pct_mean"].get<double>(), 10.0);
      EXPECT_GE(j["coverage"].get<double>(), 0.9);
      for (const auto& it : j["iterations"])
        EXPECT_LT(it["predicted_us"].get<double>(), it["measured_us"].get<double>());
      // The datasheet run reports its calibrated companion beside it, out of sample.
      ASSERT_TRUE(j.contains("calibrated")) << datasheet.out.substr(0, 2000);
      const auto& c = j["calibrated"];
      ASSERT_EQ(c["iterations"].size(), 3u);
      double outside = 0;
      for (size_t i = 1; i < 3; ++i) {
        const double m = j["iterations"][i]["measured_us"].get<double>();
        outside += std::abs(c["iterations"][i]["predicted_us"].get<double>() - m) / m * 100 / 2;
      }
      EXPECT_NEAR(c["error_pct_mean_out_of_sample"].get<double>(), outside, 0.01);
      EXPECT_LE(outside, 10.0);
      EXPECT_TRUE(c["calibration"]["model_efficiency"].contains("convolution roofline (tf32)"));
      EXPECT_FALSE(c["calibration"].contains("carried"));
      name = "h100_resnet50_train.pt.trace.json.gz --calibrate";
    } else {
      name += ".pt.trace.json.gz";
    }
    CliRun r = runCli("predict --json " + dir + name);
    ASSERT_EQ(r.code, 0) << name << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["gpu"], "H100-SXM") << name;
    ASSERT_EQ(j["iterations"].size(), 3u) << name;
    double sumAbs = 0;
    for (const auto& it : j["iterations"]) {
      const double m = it["measured_us"].get<double>(), p = it["predicted_us"].get<double>();
      ASSERT_GT(m, 0) << name;
      sumAbs += std::abs(p - m) / m * 100;
    }
    EXPECT_NEAR(j["error_pct_mean"].get<double>(), sumAbs / 3, 0.01) << name;
    EXPECT_LE(j["error_pct_mean"].get<double>(), 10.0) << name;
    EXPECT_FALSE(j.contains("what_if")) << name;  // the trace's own GPU
    if (name.starts_with("h100_transformer_bf16")) {
      h100 = meanPredicted(j);
      h100Gpu = j["iterations"][1]["gpu_active_predicted_us"].get<double>();
    }
  }
  // On the H100 the transformer's host sets the pace (GPU active 17 of 31 ms); priced
  // on a V100 (no bf16 tensor cores) its GPU work grows by the ratio the models give,
  // the iteration becomes GPU-bound and follows it.
  CliRun v = runCli("predict --json --gpu V100 " + dir + "h100_transformer_bf16.pt.trace.json.gz");
  ASSERT_EQ(v.code, 0) << v.out;
  const auto vj = nlohmann::json::parse(v.out);
  EXPECT_GT(meanPredicted(vj), 1.8 * h100);
  EXPECT_GT(vj["iterations"][1]["gpu_active_predicted_us"].get<double>(), 4 * h100Gpu);
  for (const auto& it : vj["iterations"])
    EXPECT_LT(it["predicted_us"].get<double>(), 1.05 * it["gpu_active_predicted_us"].get<double>());
  // Its "errors" are against the H100's times: the report says it is a what-if and gives
  // the ratio, predicted / measured per iteration, averaged.
  ASSERT_TRUE(vj.contains("what_if")) << v.out.substr(0, 2000);
  EXPECT_EQ(vj["what_if"]["trace_gpu"], "H100-SXM");
  double ratio = 0;
  for (const auto& it : vj["iterations"])
    ratio += it["predicted_us"].get<double>() / it["measured_us"].get<double>() / 3;
  EXPECT_NEAR(vj["what_if"]["predicted_over_measured"].get<double>(), ratio, 0.001);
  EXPECT_GT(ratio, 1.8);
  CliRun vt = runCli("predict --gpu V100 " + dir + "h100_transformer_bf16.pt.trace.json.gz");
  EXPECT_NE(vt.out.find("a what-if: the trace ran on H100-SXM"), std::string::npos) << vt.out.substr(0, 2000);
  // Its calibrated companion is fitted on the H100 and carried to the V100.
  ASSERT_TRUE(vj.contains("calibrated"));
  EXPECT_EQ(vj["calibrated"]["calibration"]["carried"], true);
  EXPECT_TRUE(vj["calibrated"]["calibration"]["model_efficiency"].contains("gemm roofline"));
}

TEST(Cli, PredictBadInputIsOneLine) {
  auto oneLine = [](const CliRun& r) { return std::count(r.out.begin(), r.out.end(), '\n') == 1; };
  CliRun gpu = runCli("predict --gpu Z80 " + kSample);
  EXPECT_EQ(gpu.code, 2);
  EXPECT_TRUE(oneLine(gpu)) << gpu.out;
  EXPECT_NE(gpu.out.find("V100"), std::string::npos);  // names the known ones
  const std::string bad = test::tempPath("bad_overheads.json");
  {
    FILE* f = std::fopen(bad.c_str(), "wb");
    std::fputs("{\"t1\": [1, 2], \"t2\": 5}", f);
    std::fclose(f);
  }
  CliRun o = runCli("predict --overheads " + bad + " " + kSample);
  EXPECT_EQ(o.code, 4);
  EXPECT_TRUE(oneLine(o)) << o.out;
  CliRun mb = runCli("predict --microbench " + bad + " " + kSample);
  EXPECT_EQ(mb.code, 4);
  EXPECT_TRUE(oneLine(mb)) << mb.out;
  // One GEMM and one convolution table: the header tells them apart; a second of one
  // kind is a usage error; the JSON names each table's file (null: rooflines).
  const std::string gemm = test::tempPath("gemm_bench.csv"), conv = test::tempPath("conv_bench.csv");
  {
    std::ofstream(gemm) << "batch_size,M,N,K,kernel_runtime\n1,64,64,64,5\n";
    std::ofstream(conv) << "pass,grads,N,C,K,H,W,R,S,stride,padding,dtype,kernel_runtime\n"
                           "forward,,32,64,64,56,56,3,3,1,1,float32,100\n";
  }
  CliRun two = runCli("predict --json --microbench " + conv + " --microbench " + gemm + " " + kSample);
  ASSERT_EQ(two.code, 0) << two.out.substr(0, 500);
  const auto tj = nlohmann::json::parse(two.out);
  EXPECT_EQ(tj["microbenchmarks"]["gemm"], gemm);
  EXPECT_EQ(tj["microbenchmarks"]["convolution"], conv);
  CliRun twice = runCli("predict --microbench " + gemm + " --microbench " + gemm + " " + kSample);
  EXPECT_EQ(twice.code, 2);
  EXPECT_TRUE(oneLine(twice)) << twice.out;
  EXPECT_NE(twice.out.find("second GEMM"), std::string::npos) << twice.out;
  CliRun none = runCli("predict --json " + kSample);  // the A100 has no built-in table
  ASSERT_EQ(none.code, 0);
  EXPECT_TRUE(nlohmann::json::parse(none.out)["microbenchmarks"]["convolution"].is_null());
  EXPECT_EQ(runCli("predict --replay --overheads " + bad + " " + kSample).code, 2);
  EXPECT_EQ(runCli("predict").code, 2);
  EXPECT_EQ(runCli("predict /nonexistent.json").code, 3);
  CliRun list = runCli("predict --list-gpus");
  EXPECT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("H100-SXM"), std::string::npos);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Cli, SummaryOfAnExecutionTraceByContent) {
  const auto et = test::sharedTrace("simple_add_et.json.gz");
  if (!et) GTEST_SKIP() << "../shared/traces not present";
  CliRun r = runCli("summary --json " + *et);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "pytorch-et");
  EXPECT_EQ(j["encoding"], "json");
  EXPECT_EQ(j["schema"], "1.0.1");
  EXPECT_EQ(j["nodes"], 38);
  ASSERT_TRUE(j["ops_by_name"].is_array());
  EXPECT_EQ(j["ops_by_name"][0]["count"], 4);
  // Named like a Kineto trace, still detected by content.
  const std::string copy = test::tempPath("looks_like_kineto.pt.trace.json.gz");
  ASSERT_EQ(std::system(("cp " + *et + " " + copy).c_str()), 0);
  EXPECT_EQ(nlohmann::json::parse(runCli("summary --json " + copy).out)["format"], "pytorch-et");
  EXPECT_EQ(runCli("summary --iterations 0 " + copy).code, 2);
}

TEST(Cli, LinkWritesEtPlusAndReports) {
  const auto et = test::sharedTrace("simple_add_et.json.gz");
  const auto kineto = test::sharedTrace("simple_add_kineto.json.gz");
  if (!et || !kineto) GTEST_SKIP() << "../shared/traces not present";
  const std::string out = test::tempPath("simple_add_et_plus.json");
  const std::string report = test::tempPath("simple_add_link_report.json");
  CliRun r = runCli("link --et " + *et + " --kineto " + *kineto + " -o " + out + " --report-json " + report);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("linked 36 of 36 ET ops and 4 of 4 GPU events"), std::string::npos) << r.out;
  const auto plus = nlohmann::json::parse(test::readFile(out));
  EXPECT_EQ(plus["nodes"].size(), 42u);
  const auto rep = nlohmann::json::parse(test::readFile(report));
  EXPECT_EQ(rep["linked_ops"], 36);
  EXPECT_TRUE(rep["unlinked"].empty());
  // The written ET+ is an execution trace again.
  CliRun again = runCli("summary --json " + out);
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(nlohmann::json::parse(again.out)["gpu_nodes"], 4);

  // Errors: one line each.
  auto oneLine = [](const CliRun& c) { return std::count(c.out.begin(), c.out.end(), '\n') == 1; };
  CliRun missing = runCli("link --et " + *et + " --kineto " + *kineto);
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(oneLine(missing)) << missing.out;
  CliRun notEt = runCli("link --et " + *kineto + " --kineto " + *kineto + " -o " + out);
  EXPECT_EQ(notEt.code, 4);
  EXPECT_TRUE(oneLine(notEt)) << notEt.out;
  CliRun noFile = runCli("link --et /nonexistent.json --kineto " + *kineto + " -o " + out);
  EXPECT_NE(noFile.code, 0);
  EXPECT_TRUE(oneLine(noFile)) << noFile.out;
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Cli, DiffOfTwoRunsAndOfTwoIterationRanges) {
  // The sample against itself: every delta 0, the contract's keys present.
  CliRun r = runCli("diff --json " + kSample + " " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"a", "b", "ops", "kernels", "iteration_us_a", "iteration_us_b"})
    EXPECT_TRUE(j.contains(key)) << key;
  ASSERT_FALSE(j["kernels"].empty());
  for (const auto& k : j["kernels"]) EXPECT_EQ(k["delta_us"], 0.0) << k["name"];
  EXPECT_EQ(j["iteration_us_a"], j["iteration_us_b"]);

  // Two iteration ranges of one trace; text output names both.
  r = runCli("diff --iterations 0:2 --iterations-b 2:2 " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("(iterations 0:2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU kernels, memcpys and memsets"), std::string::npos) << r.out;
  r = runCli("diff --json --iterations 0:2 --iterations-b 2:2 " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["iteration_us_b"].size(), 2u);

  // One-line errors with their exit codes.
  r = runCli("diff " + kSample);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--iterations and --iterations-b"), std::string::npos) << r.out;
  EXPECT_EQ(runCli("diff --iterations x " + kSample + " " + kSample).code, 2);
  EXPECT_EQ(runCli("diff --top 0 " + kSample + " " + kSample).code, 2);
  r = runCli("diff " + kSample + " /nonexistent/b.json");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("/nonexistent/b.json"), std::string::npos) << r.out;
  r = runCli("diff --iterations 500 " + kSample + " " + kSample);
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.out.find("no iteration 500"), std::string::npos) << r.out;
  // The output never replaces an input.
  const std::string copy = test::tempPath("diff_input.json.gz");
  std::ofstream(copy, std::ios::binary) << test::readFile(kSample);
  r = runCli("diff --json -o " + copy + " " + copy + " " + kSample);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(test::readFile(copy), test::readFile(kSample));
  std::remove(copy.c_str());
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Cli, ExportMemoryChartAndData) {
  const std::string trace = OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/memory_view.json";
  CliRun r = runCli("export --chart memory --format json -o - " + trace);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  ASSERT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(j["devices"][0]["label"], "GPU 0");
  EXPECT_GT(j["devices"][0]["peak_allocated_bytes"].get<int64_t>(), 0);
  const std::string png = test::tempPath("memory.png");
  r = runCli("export --chart memory --format png -o " + png + " " + trace);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(test::readFile(png).substr(1, 3), "PNG");
  std::remove(png.c_str());
  // A trace without [memory] events still exports: no devices.
  r = runCli("export --chart memory --format json -o - " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(nlohmann::json::parse(r.out.substr(r.out.find('{')))["devices"].empty());
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Cli, AdviseListsFindingsMostTimeAtStakeFirst) {
  CliRun r = runCli("advise --json " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"file", "examined_us", "recommendations"}) EXPECT_TRUE(j.contains(key)) << key;
  ASSERT_FALSE(j["recommendations"].empty());
  double previous = 1e300;
  for (const auto& a : j["recommendations"]) {
    for (const char* key : {"id", "title", "action", "at_stake_us", "share_pct", "where", "evidence"})
      EXPECT_TRUE(a.contains(key)) << key;
    EXPECT_LE(a["at_stake_us"].get<double>(), previous);
    previous = a["at_stake_us"].get<double>();
  }
  // The sample's step waits on cudaStreamSynchronize: that finding leads.
  EXPECT_EQ(j["recommendations"][0]["id"], "host_sync");
  r = runCli("advise " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1. [host_sync]"), std::string::npos) << r.out;
  // The same as a chart's data, and one-line errors.
  r = runCli("export --chart advice --format csv -o - " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("id,at_stake_us,share_pct,title\nhost_sync,", 0), 0u) << r.out;
  EXPECT_EQ(runCli("advise").code, 2);
  EXPECT_EQ(runCli("advise --bogus " + kSample).code, 2);
  EXPECT_EQ(runCli("advise /nonexistent.json").code, 3);
}

TEST(Cli, CriticalPathJsonIsTheContractAndTilesTheIteration) {
  CliRun r = runCli("critical-path --json --iteration 0 " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  // Written a segment at a time, with the bytes of the whole document's dump(2).
  EXPECT_EQ(r.out, nlohmann::ordered_json::parse(r.out).dump(2) + "\n");
  for (const char* key : {"file", "window", "iteration_us", "length_us", "start_us", "end_us", "weighted_us",
                          "by_category", "share_pct", "ops", "kernels", "segments", "graph", "warnings"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["window"]["kind"], "iteration");
  EXPECT_EQ(j["window"]["iteration"], 0);
  double sum = 0;
  for (const char* c :
       {"cpu_op", "runtime", "kernel", "communication", "memcpy", "sync_wait", "launch_delay", "kernel_gap", "idle"})
    sum += j["by_category"][c].get<double>();
  EXPECT_NEAR(sum, j["length_us"].get<double>(), 1e-3);
  double segs = 0, at = j["start_us"].get<double>();
  for (const auto& s : j["segments"]) {
    EXPECT_NEAR(s["ts_us"].get<double>(), at, 1e-3);
    at = s["ts_us"].get<double>() + s["dur_us"].get<double>();
    segs += s["dur_us"].get<double>();
  }
  EXPECT_NEAR(segs, j["length_us"].get<double>(), 1e-3);
  EXPECT_NEAR(at, j["end_us"].get<double>(), 1e-3);
  // The path lies inside the iteration: it starts at or after it and ends by its end.
  EXPECT_GE(j["start_us"].get<double>(), j["window"]["start_us"].get<double>());
  EXPECT_LE(j["length_us"].get<double>(), j["iteration_us"].get<double>() + 1e-3);
  EXPECT_FALSE(j["ops"].empty());
  EXPECT_FALSE(j["kernels"].empty());
  r = runCli("critical-path --csv --iteration 0 " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("ts_us,dur_us,category,edge,name,track\n", 0), 0u);
  r = runCli("critical-path " + kSample);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("where the time goes"), std::string::npos) << r.out;
  EXPECT_EQ(runCli("critical-path").code, 2);
  EXPECT_EQ(runCli("critical-path --iteration x " + kSample).code, 2);
  EXPECT_EQ(runCli("critical-path --iteration 0 --annotation A " + kSample).code, 2);
  r = runCli("critical-path --iteration 999 " + kSample);
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(runCli("critical-path /nonexistent.json").code, 3);
}

// Learned efficiency (core/perf/learned_efficiency.h): a run says which tables priced it
// and whether the trace was in their fit; a table fitted without the trace prices it
// out of sample; --datasheet turns the curves off; --fit-samples writes what the
// fitting script reads.
TEST(Cli, PredictSaysWhichEfficiencyTablesPricedTheTraceAndWhetherItWasInTheirFit) {
  const std::string bert =
      OPSCOPE_SOURCE_DIR "/tests/data/tracelens/h100_gaunernst_bert-small-uncased__1016001.json.gz";
  CliRun builtin = runCli("predict --json " + bert);
  ASSERT_EQ(builtin.code, 0) << builtin.out.substr(0, 500);
  auto j = nlohmann::json::parse(builtin.out);
  ASSERT_TRUE(j["efficiency"].is_object());
  EXPECT_EQ(j["efficiency"]["tables"], "built-in (resources/gpu/efficiency.json)");
  EXPECT_TRUE(j["efficiency"]["trace_in_fit"].get<bool>());  // the built-in table was fitted on it
  size_t curved = 0;
  for (const auto& op : j["ops"])
    if (op.contains("efficiency_curve")) {
      ++curved;
      EXPECT_GT(op["datasheet_us"].get<double>(), 0);
    }
  EXPECT_GT(curved, 10u);

  // A table without this trace: out of sample, and the text says so.
  const std::string table = test::tempPath("efficiency_without_bert.json");
  {
    std::ofstream f(table);
    f << R"({"description": "test", "curves": {"H100-SXM": {"memory-bound": {"knots": [[0, 2]]},
            "kernel floor": {"knots": [[0, 1.5]]}}}, "fitted_on": [{"file": "x", "fingerprint": "kernels=1 kernel_ns=1"}]})";
  }
  CliRun other = runCli("predict --json --efficiency " + table + " " + bert);
  ASSERT_EQ(other.code, 0) << other.out.substr(0, 500);
  j = nlohmann::json::parse(other.out);
  EXPECT_FALSE(j["efficiency"]["trace_in_fit"].get<bool>());
  EXPECT_EQ(j["efficiency"]["tables"], table);
  bool floorSeen = false;
  for (const auto& op : j["ops"])
    if (op.value("efficiency_curve", "") == "H100-SXM / kernel floor") floorSeen = true;
  EXPECT_TRUE(floorSeen);
  CliRun text = runCli("predict --efficiency " + table + " " + bert);
  EXPECT_NE(text.out.find("this trace is not one of them (out of sample)"), std::string::npos) << text.out;

  CliRun sheet = runCli("predict --json --datasheet " + bert);
  ASSERT_EQ(sheet.code, 0);
  EXPECT_TRUE(nlohmann::json::parse(sheet.out)["efficiency"].is_null());
  EXPECT_EQ(runCli("predict --datasheet --efficiency " + table + " " + bert).code, 2);
  EXPECT_EQ(runCli("predict --replay --datasheet " + bert).code, 2);
  const std::string broken = test::tempPath("efficiency_broken.json");
  {
    std::ofstream f(broken);
    f << R"({"curves": {"H100-SXM": {"gemm": {"knots": [[1, -2]]}}}})";
  }
  CliRun bad = runCli("predict --efficiency " + broken + " " + bert);
  EXPECT_EQ(bad.code, 4) << bad.out;
  EXPECT_NE(bad.out.find("curves.H100-SXM.gemm: a knot's ratio must be in"), std::string::npos) << bad.out;

  const std::string samples = test::tempPath("fit_samples.csv");
  CliRun fit = runCli("predict --datasheet --fit-samples " + samples + " -o /dev/null " + bert);
  ASSERT_EQ(fit.code, 0) << fit.out;
  const std::string csv = test::readFile(samples);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "file,gpu,vendor,fingerprint,op,model,family,dtype,at_floor,gpu_events,datasheet_us,measured_us");
  EXPECT_NE(csv.find(",H100-SXM,nvidia,kernels=60 kernel_ns=307197,aten::linear,gemm roofline,gemm,"),
            std::string::npos);
  EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 50);

  // The unaligned-size grid recorded on an H100: its GEMMs over 197..5185-wide rows are
  // keyed "<dtype> unaligned" (the samples of their own curves); no other family is.
  const std::string grid = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_sweep_unaligned.pt.trace.json.gz";
  ASSERT_EQ(runCli("predict --datasheet --fit-samples " + samples + " -o /dev/null " + grid).code, 0);
  size_t oddGemms = 0, alignedGemms = 0;
  std::istringstream rows(test::readFile(samples));
  for (std::string row; std::getline(rows, row);) {
    if (row.find(" unaligned,") == std::string::npos) {
      if (row.find(",gemm,") != std::string::npos) ++alignedGemms;
      continue;
    }
    EXPECT_NE(row.find(",gemm,"), std::string::npos) << row;
    ++oddGemms;
  }
  EXPECT_GT(oddGemms, 100u);
  EXPECT_GT(alignedGemms, 10u);  // 1024-wide rows of the same grid: aligned
}

// "--" ends a command's options: a file whose name starts with '-' is read as a FILE
// after it (before it, it is an unknown option, as before).
TEST(Cli, DoubleDashEndsTheOptions) {
  const std::string dir = test::tempPath("dashes");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kSample, dir + "/-odd.json.gz", std::filesystem::copy_options::overwrite_existing);
  auto run = [&](const std::string& args) {
    const std::string cmd = "cd '" + dir + "' && " + std::string(OPSCOPE_BINARY) + " " + args + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = ::pclose(p);
    return CliRun{WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
  };
  CliRun r = run("summary --json -- -odd.json.gz");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["iterations"], 16);
  r = run("summary -odd.json.gz");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown option -odd.json.gz"), std::string::npos) << r.out;
  EXPECT_EQ(run("predict --json --datasheet -- -odd.json.gz").code, 0);
  EXPECT_EQ(run("diff --json -- -odd.json.gz -odd.json.gz").code, 0);
}

// link -o X --report-json X: refused before anything is read or written (the report,
// written second, replaced the linked trace); so are two names of one file and both on
// standard output.
TEST(Cli, LinkRefusesOneFileForBothOutputs) {
  const std::string out = test::tempPath("both.json");
  std::remove(out.c_str());
  const std::string inputs = "link --et /nonexistent_et.json --kineto /nonexistent.json";
  for (const std::string& pair : {"-o " + out + " --report-json " + out,
                                  "-o " + out + " --report-json " + std::filesystem::path(out).parent_path().string() +
                                      "/./" + std::filesystem::path(out).filename().string(),
                                  std::string("-o - --report-json -")}) {
    CliRun r = runCli(inputs + " " + pair);
    EXPECT_EQ(r.code, 2) << pair << ": " << r.out;
    EXPECT_NE(r.out.find("-o and --report-json name the same file"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
  FILE* f = std::fopen(out.c_str(), "rb");
  EXPECT_EQ(f, nullptr) << "nothing is written";
  if (f) std::fclose(f);
  // Different outputs go on to read the inputs (and fail on them, exit 3).
  EXPECT_EQ(runCli(inputs + " -o " + out + " --report-json " + out + ".report").code, 3);
}

// The GPUs of 2026 by the name a trace records (a real H100 trace with its deviceProperties
// rewritten, the structure the issue describes): a B200 trace is predicted on the B200
// (it was refused), a GeForce RTX 2080 Ti on its own preset (it was priced as a V100
// without a word), a GTX 1060 refused with the list of presets.
TEST(Cli, PredictNamesThePresetOfTheGpusOf2026) {
  const std::string real =
      test::gunzip(test::readFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_mlp.pt.trace.json.gz"));
  auto withDevice = [&](const std::string& name, int sms, int major, int minor) {
    auto j = nlohmann::json::parse(real);
    j["deviceProperties"][0]["name"] = name;
    j["deviceProperties"][0]["numSms"] = sms;
    j["deviceProperties"][0]["computeMajor"] = major;
    j["deviceProperties"][0]["computeMinor"] = minor;
    const std::string path = test::tempPath("gpu2026_" + std::to_string(sms) + ".json");
    std::ofstream(path) << j.dump();
    return path;
  };
  const std::string b200 = withDevice("NVIDIA B200", 148, 10, 0);
  CliRun b = runCli("predict --json " + b200);
  ASSERT_EQ(b.code, 0) << b.out;
  EXPECT_EQ(nlohmann::json::parse(b.out)["gpu"], "B200");
  const std::string turing = withDevice("NVIDIA GeForce RTX 2080 Ti", 68, 7, 5);
  CliRun t = runCli("predict --json " + turing);
  ASSERT_EQ(t.code, 0) << t.out;
  EXPECT_EQ(nlohmann::json::parse(t.out)["gpu"], "RTX-2080-Ti");
  const std::string pascal = withDevice("NVIDIA GeForce GTX 1060 6GB", 10, 6, 1);
  CliRun p = runCli("predict " + pascal);
  EXPECT_EQ(p.code, 2) << p.out;
  EXPECT_NE(p.out.find("the presets: V100"), std::string::npos) << p.out;
  for (const std::string& f : {b200, turing, pascal}) std::remove(f.c_str());
}

// `opscope roofline`: the contract's keys, a bad --gpu and a missing iteration are
// one-line errors with the usual exit codes, CSV has the contract's columns.
TEST(Cli, RooflineJsonCsvAndErrors) {
  const std::string trace =
      OPSCOPE_SOURCE_DIR "/tests/data/tracelens/h100_gaunernst_bert-small-uncased__1016001.json.gz";
  CliRun j = runCli("roofline --json " + trace);
  ASSERT_EQ(j.code, 0) << j.out;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["gpu"], "H100-SXM");
  EXPECT_TRUE(doc["window"].is_null());
  ASSERT_FALSE(doc["ops"].empty());
  EXPECT_TRUE(doc["peaks"].contains("bf16_tflops"));
  CliRun c = runCli("roofline --csv --iteration 0 " + trace);
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_EQ(c.out.rfind("name,input_dims,dtype,category,count,kernel_us_total,kernel_us_mean,flops,bytes,"
                        "flops_per_byte,tflops_s,tbs,bound,roof_pct,at_stake_us",
                        0),
            0u);
  CliRun g = runCli("roofline --gpu NOPE " + trace);
  EXPECT_EQ(g.code, 2) << g.out;
  EXPECT_EQ(std::count(g.out.begin(), g.out.end(), '\n'), 1) << g.out;
  CliRun i = runCli("roofline --iteration 99 " + trace);
  EXPECT_EQ(i.code, 4) << i.out;
  EXPECT_NE(i.out.find("no iteration 99"), std::string::npos) << i.out;
  CliRun t = runCli("roofline " + trace);
  EXPECT_EQ(t.code, 0);
  EXPECT_NE(t.out.find("roofline on H100-SXM"), std::string::npos) << t.out;
}

// A what-if on traces recorded without shapes (real H100 traces with every op's Input
// Dims removed: the structure the issue describes): each op's kernels are scaled by the
// roof they are bound by, so a GPU-bound ResNet-50 step moves with the GPU (V100 against
// H100: it predicted 1.00x, nothing being modelled) and a host-bound MLP does not.
TEST(Cli, WhatIfWithoutShapesScalesKernelsByTheirRoofs) {
  const auto stripped = [](const std::string& name) {
    auto j = nlohmann::json::parse(
        test::gunzip(test::readFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/" + name + ".pt.trace.json.gz")));
    for (auto& e : j["traceEvents"])
      if (e.contains("args") && e["args"].is_object())
        for (const char* k : {"Input Dims", "Input type", "Concrete Inputs", "Input Strides"}) e["args"].erase(k);
    const std::string path = test::tempPath(name + "_noshapes.json");
    std::ofstream(path) << j.dump();
    return path;
  };
  const auto meanIteration = [](const std::string& out) {
    const auto j = nlohmann::json::parse(out);
    double sum = 0;
    for (const auto& i : j["iterations"]) sum += i["predicted_us"].get<double>();
    return j["iterations"].empty() ? 0.0 : sum / static_cast<double>(j["iterations"].size());
  };
  const std::string resnet = stripped("h100_resnet50_train");
  CliRun v = runCli("predict --json --gpu V100 " + resnet + " 2>/dev/null");
  CliRun h = runCli("predict --json --gpu H100-SXM " + resnet + " 2>/dev/null");
  ASSERT_EQ(v.code, 0) << v.out;
  ASSERT_EQ(h.code, 0) << h.out;
  const auto vj = nlohmann::json::parse(v.out);
  ASSERT_FALSE(vj["ops"].empty());
  EXPECT_EQ(vj["ops"][0]["model"], "scaled from measured (no shapes)");
  EXPECT_DOUBLE_EQ(vj["coverage"].get<double>(), 0.0);  // scaling is no model
  EXPECT_GE(meanIteration(v.out) / meanIteration(h.out), 1.5);
  const std::string mlp = stripped("h100_mlp");
  CliRun mv = runCli("predict --json --gpu V100 " + mlp + " 2>/dev/null");
  CliRun mh = runCli("predict --json --gpu H100-SXM " + mlp + " 2>/dev/null");
  ASSERT_EQ(mv.code, 0) << mv.out;
  ASSERT_EQ(mh.code, 0) << mh.out;
  EXPECT_NEAR(meanIteration(mv.out) / meanIteration(mh.out), 1.0, 0.05);
  std::remove(resnet.c_str());
  std::remove(mlp.c_str());
}

}  // namespace
}  // namespace opscope
