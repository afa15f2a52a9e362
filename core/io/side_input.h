#pragma once
// Side inputs: the small files that steer a command beside its trace (a GPU description,
// the user's kernel classes, an overheads model, microbenchmark tables). One reader for
// all of them, with ceilings like the trace readers': a side input is read up to its
// kind's ceiling and no further (so /dev/zero or a 10 GB file cannot grow memory), a
// UTF-8 byte-order mark is dropped, a directory is named as one, and JSON side files
// are refused past the traces' nesting ceiling before any recursive code sees them.
// Every error is one line; text quoted from the file is cut to a few dozen bytes.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace opscope {

enum class SideInputKind { GpuFile, KernelClasses, Overheads, Microbench, Efficiency };

// "GPU file", "kernel classes file", ...: the words errors use.
const char* sideInputName(SideInputKind kind);
// The most bytes a side input of this kind may hold. Real ones: a GPU file is a few
// KiB, the built-in H100 convolution table 76 KiB.
size_t sideInputCeiling(SideInputKind kind);

enum class SideReadStatus { Ok, IoError, Invalid };

struct SideRead {
  SideReadStatus status = SideReadStatus::Ok;
  std::string text;   // Ok: the bytes, without a leading UTF-8 BOM
  std::string error;  // otherwise: one line, without the path (callers prefix it)
};

SideRead readSideInput(const std::string& path, SideInputKind kind);

// JSON text of a side input, parsed with the trace readers' ceilings: nesting deeper
// than kMaxJsonDepth is refused before parsing; a syntax error names its byte; a number
// beyond double's range is named (cut) instead of escaping as an exception.
std::optional<nlohmann::json> parseSideJson(std::string_view text, std::string& error);

}  // namespace opscope
