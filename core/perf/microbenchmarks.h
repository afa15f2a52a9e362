#pragma once
// The microbenchmarks a prediction may use instead of rooflines: measured GEMMs (the
// notebook's CSV) and measured convolutions (conv_microbench.h), each optional. One
// CSV at a time is added; its header says which kind it is.
#include <optional>
#include <string>
#include <string_view>

#include "perf/conv_microbench.h"
#include "perf/kernel_models.h"

namespace opscope {

struct Microbenchmarks {
  std::optional<GemmMicrobench> gemm;
  std::optional<ConvMicrobench> conv;
  bool empty() const { return !gemm && !conv; }
};

enum class MicrobenchKind { Gemm, Convolution };

// A header with "pass" and "R" is a convolution table, anything else a GEMM table
// (whose own columns are then checked). Replaces an earlier table of the same kind.
// Errors are one line (see readMeasurementCsv).
std::optional<MicrobenchKind> addMicrobenchmarkCsv(Microbenchmarks& into, std::string_view text, std::string& error);
const char* microbenchKindName(MicrobenchKind k);  // "GEMM", "convolution"

// The tables opscope ships for a preset, measured on that GPU (resources/gpu/microbench,
// written by tools/record_gpu_traces.py): today the H100-SXM's convolutions. nullptr for
// a GPU without any. The name is the preset's (case-insensitive), so a GPU file that
// redefines "H100-SXM" keeps the table, scaled to its figures as any what-if is.
const Microbenchmarks* builtinMicrobenchmarks(std::string_view gpuName);
// What a built-in table is, for reports ("built-in, measured on an H100 80GB HBM3: 1304
// rows of shape, pass and dtype"); "" when the GPU has no table of that kind.
std::string builtinMicrobenchmarkSource(std::string_view gpuName, MicrobenchKind kind);

}  // namespace opscope
