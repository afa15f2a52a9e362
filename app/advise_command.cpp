#include "advise_command.h"

#include <cstdio>

#include "analysis/advice.h"
#include "cli_common.h"
#include "ranks/rank_session.h"
#include "report/advice_report.h"

namespace opscope::app {

void printUsage(FILE* out);

int runAdvise(const std::vector<std::string>& args) {
  bool json = false;
  std::string file, out = "-";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "-o") {
      if (i + 1 >= args.size()) {
        std::fputs("opscope advise: -o needs a value\n", stderr);
        return kUsage;
      }
      out = args[++i];
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "opscope advise: unknown option %s\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope advise: more than one FILE given (%s)\n", a.c_str());
      return kUsage;
    }
  }
  if (file.empty()) {
    std::fputs("opscope advise: no FILE given\n", stderr);
    return kUsage;
  }
  // A folder of rank traces is one session: stragglers and communication across ranks.
  const LoadResult r = loadTraceOrSession(file);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  reportRanksNotLoaded(r, file);
  const std::vector<Advice> advice = advise(*r.trace);
  return writeOutput(out, json ? adviceJson(advice, *r.trace, file) : adviceText(advice, *r.trace, file));
}

}  // namespace opscope::app
