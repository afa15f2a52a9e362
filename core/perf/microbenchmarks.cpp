#include "perf/microbenchmarks.h"

#include "perf/measurement_csv.h"

namespace opscope {

std::optional<MicrobenchKind> addMicrobenchmarkCsv(Microbenchmarks& into, std::string_view text, std::string& error) {
  if (csvHeaderHas(text, "pass") && csvHeaderHas(text, "R")) {
    auto conv = ConvMicrobench::fromCsv(text, error);
    if (!conv) return std::nullopt;
    into.conv = std::move(conv);
    return MicrobenchKind::Convolution;
  }
  auto gemm = GemmMicrobench::fromCsv(text, error);
  if (!gemm) return std::nullopt;
  into.gemm = std::move(gemm);
  return MicrobenchKind::Gemm;
}

const char* microbenchKindName(MicrobenchKind k) { return k == MicrobenchKind::Gemm ? "GEMM" : "convolution"; }

extern const unsigned char kBuiltinH100SxmConvCsv[];  // NUL-terminated, any bytes

const Microbenchmarks* builtinMicrobenchmarks(std::string_view gpuName) {
  if (!iequal(gpuName, "H100-SXM")) return nullptr;
  // Parsed once; the CSV is compiled in, so a parse failure is a build defect that the
  // tests catch (BuiltinMicrobenchmarks), never the user's input.
  static const Microbenchmarks h100 = [] {
    Microbenchmarks m;
    std::string error;
    addMicrobenchmarkCsv(m, reinterpret_cast<const char*>(kBuiltinH100SxmConvCsv), error);
    return m;
  }();
  return h100.empty() ? nullptr : &h100;
}

std::string builtinMicrobenchmarkSource(std::string_view gpuName, MicrobenchKind kind) {
  const Microbenchmarks* m = builtinMicrobenchmarks(gpuName);
  if (!m) return {};
  if (kind == MicrobenchKind::Convolution && m->conv)
    return "built-in, measured on an H100 80GB HBM3: " + std::to_string(m->conv->size()) +
           " rows of shape, pass and dtype";
  if (kind == MicrobenchKind::Gemm && m->gemm)
    return "built-in, measured on an H100 80GB HBM3: " + std::to_string(m->gemm->size()) + " shapes";
  return {};
}

}  // namespace opscope
