#include "link_command.h"

#include <cstdio>

#include "cli_common.h"
#include "et/et_link.h"
#include "io/trace_loader.h"

namespace opscope::app {

void printUsage(FILE* out);

int runLink(const std::vector<std::string>& args) {
  std::string etPath, kinetoPath, out, reportJson;
  EtLinkOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "--et") ok = value(etPath);
    else if (a == "--kineto") ok = value(kinetoPath);
    else if (a == "-o") ok = value(out);
    else if (a == "--annotation") ok = value(options.annotation);
    else if (a == "--report-json") ok = value(reportJson);
    else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else {
      std::fprintf(stderr, "opscope link: unexpected argument %s (try opscope --help)\n", a.c_str());
      return kUsage;
    }
    if (!ok) {
      std::fprintf(stderr, "opscope link: %s needs a value\n", a.c_str());
      return kUsage;
    }
  }
  if (etPath.empty() || kinetoPath.empty() || out.empty()) {
    std::fprintf(stderr, "opscope link: needs --et ET --kineto TRACE -o OUT\n");
    return kUsage;
  }
  std::string error;
  auto et = loadExecutionTrace(etPath, error);
  if (!et) {
    std::fprintf(stderr, "opscope: %s: %s\n", etPath.c_str(), error.c_str());
    return error.find("cannot open") != std::string::npos || error.find("No such") != std::string::npos ? kIoError
                                                                                                        : kInvalidInput;
  }
  LoadResult r = loadTraceFile(kinetoPath);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", kinetoPath.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  const EtLink link = linkExecutionTrace(*et, *r.trace, options);
  if (link.linkedOps == 0) {
    std::fprintf(stderr, "opscope link: no op of %s matches one of %s (%s): nothing written\n", etPath.c_str(),
                 kinetoPath.c_str(), link.method.c_str());
    return kInvalidInput;
  }
  const std::string text = etPlusJson(*et, *r.trace, link);
  if (const int code = writeOutput(out, text); code != kOk) return code;
  if (!reportJson.empty())
    if (const int code = writeOutput(reportJson, etLinkIssuesJson(*r.trace, link)); code != kOk) return code;
  for (const EtProblem& p : et->problems) std::fprintf(stderr, "opscope: %s: %s\n", etPath.c_str(), p.what.c_str());
  const std::string report = etLinkReportText(*r.trace, link);
  std::fputs(report.c_str(), out == "-" ? stderr : stdout);
  return kOk;
}

}  // namespace opscope::app
