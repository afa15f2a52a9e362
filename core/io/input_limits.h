#pragma once
// The ceilings that keep broken or hostile input from taking unbounded memory or
// stack. Every error that hits one names it ("... larger than 64 MiB, the ceiling for
// one JSON value"); README ("Bad input") lists them.
#include <cstddef>

namespace opscope {

// One unit held whole while it is parsed: a trace event, a top-level value the Chrome
// loader keeps, an execution-trace node, a dv/dt record, a PlaidML event-log record. Real ones are bytes to
// kilobytes; whitespace between units never counts (it is dropped as it is read).
inline constexpr size_t kMaxJsonValueBytes = size_t{64} << 20;
// Nesting of arrays and objects inside any JSON value (the parsers of whole values
// recurse on copy and dump: a 400 KB file of '[' must not overflow the stack).
inline constexpr int kMaxJsonDepth = 256;
// One string or blob value of an SQLite database (SQLITE_LIMIT_LENGTH).
inline constexpr int kMaxSqliteValueBytes = 16 << 20;

}  // namespace opscope
