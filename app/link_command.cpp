#include "link_command.h"

#include <cstdio>
#include <filesystem>

#include "cli_common.h"
#include "et/et_link.h"
#include "io/trace_loader.h"

namespace opscope::app {

namespace {

// Whether two output names are one destination: both standard output, the same path
// once made absolute and normal, or (existing) the same file under two names.
bool sameOutput(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return a == b;
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) return std::filesystem::equivalent(a, b, ec);
  const auto na = std::filesystem::weakly_canonical(a, ec), nb = std::filesystem::weakly_canonical(b, ec);
  return !ec && na == nb;
}

}  // namespace

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
    else if (a == "--force") options.forceOrderAcrossProcesses = true;
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
  // Checked before anything is read: the report written second would replace the
  // linked trace (or both would interleave on standard output).
  if (!reportJson.empty() && sameOutput(out, reportJson)) {
    std::fprintf(stderr, "opscope link: -o and --report-json name the same file (%s): one would overwrite the other\n",
                 reportJson.c_str());
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
  if (!link.refused.empty()) {
    std::fprintf(stderr, "opscope link: %s and %s: %s; nothing written\n", etPath.c_str(), kinetoPath.c_str(),
                 link.refused.c_str());
    return kInvalidInput;
  }
  for (const std::string& note : link.notes) std::fprintf(stderr, "opscope link: %s\n", note.c_str());
  if (link.linkedOps == 0) {
    std::fprintf(stderr, "opscope link: no op of %s matches one of %s (%s): nothing written\n", etPath.c_str(),
                 kinetoPath.c_str(), link.method.c_str());
    return kInvalidInput;
  }
  // Written a node at a time: the ET+ of a 10^6-node trace is never one string.
  const int written = writeOutputWith(out, [&](const TextSink& put) { writeEtPlusJson(*et, *r.trace, link, put); });
  if (written != kOk) return written;
  if (!reportJson.empty())
    if (const int code =
            writeOutputWith(reportJson, [&](const TextSink& put) { writeEtLinkIssuesJson(*r.trace, link, put); });
        code != kOk)
      return code;
  for (const EtProblem& p : et->problems) std::fprintf(stderr, "opscope: %s: %s\n", etPath.c_str(), p.what.c_str());
  const std::string report = etLinkReportText(*r.trace, link);
  std::fputs(report.c_str(), out == "-" ? stderr : stdout);
  return kOk;
}

}  // namespace opscope::app
