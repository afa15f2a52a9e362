// The entry point of the GUI module (opscope-gui.so). The opscope binary loads it only
// for GUI modes, so headless commands start without loading Qt (about 20 ms of
// dynamic linking saved on every `opscope summary`).
#include <QtGlobal>
#include <string>
#include <vector>

#include "gui_main.h"

extern "C" __attribute__((visibility("default"))) int opscope_gui_main(int argc, char** argv, const char* const* args,
                                                                       int nargs) {
  std::vector<std::string> a(args, args + nargs);
  return opscope::ui::runGui(argc, argv, a);
}

#include "charts/headless_export.h"

// `opscope export --format pdf|png|svg`: the charts need Qt, so they are drawn here.
extern "C" __attribute__((visibility("default"))) int opscope_export_chart(const char* const* args, int nargs) {
  std::vector<std::string> a(args, args + nargs);
  return opscope::ui::exportChartHeadless(a);
}

// The Qt this module runs with, for `opscope --version`.
extern "C" __attribute__((visibility("default"))) const char* opscope_qt_version() { return qVersion(); }
