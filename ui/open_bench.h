#pragma once
// `opscope --bench-open FILE [--size WxH] [--open-dock analysis|prediction]`: the
// window as a user opens a trace. A real MainWindow loads FILE through its LoadJob (the
// worker a File > Open uses) and reports, as one JSON line on stdout:
//   {"file", "loaded_s" (the document arrived), "first_frame_s" (the timeline's first
//   paint with the trace finished), "settled_s" (every worker the opening started is
//   done), "longest_stall_ms" (the longest the event loop went without running, from
//   the window's show until settled), "rss_at_first_frame_mib", "peak_rss_mib"}
// Times count from the process's start (/proc/self/stat), so the library's and Qt's
// start-up are included. No assertion: bench/ reads the figures.
#include <string>

namespace opscope::ui {

struct OpenBenchOptions {
  std::string file;
  int width = 1280, height = 720;
  std::string openDock;  // "", "analysis" or "prediction": opened once the trace is in
};

int runOpenBench(const OpenBenchOptions& options);

}  // namespace opscope::ui
