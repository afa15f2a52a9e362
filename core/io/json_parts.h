#pragma once
// Where a plain JSON trace file can be cut for parallel loading, and the line numbers
// of byte offsets the parts report without counting lines themselves.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace opscope {

// Up to parts - 1 cut points in (from, size): near each of the equal shares of the
// bytes, the first '{' that follows "}" and "," (whitespace between allowed), the shape
// of the gap between two elements of an array of objects. A guess, not a parse: the
// same bytes can sit inside a string or a nested array, so the part before a cut checks
// that its own parse ends exactly there before the part after it is kept. Cuts are
// increasing; a share with no such bytes in its first MiB (events that large) has none.
std::vector<uint64_t> guessEventStarts(const std::string& path, uint64_t from, uint64_t size, unsigned parts);

// How far past a share's start a cut is looked for (a larger event there: no cut).
inline constexpr size_t kEventStartLookBytes = size_t{1} << 20;

// The index of the first such '{' in [buf + 1, buf + n) (the gap's bytes before it in
// the buffer), or n when there is none.
size_t findEventStart(const char* buf, size_t n);

// The decompressed size of a regular gzip file as its last member's trailer tells it
// (ISIZE, the size modulo 2^32, lifted by 2^32 for a file large enough to have wrapped):
// a guess for placing cuts, never trusted for anything else. 0 ("unknown") when the file
// cannot be read, the size is 0 (an empty last member) or it is not 4-100x the compressed
// size (trace JSON compresses 5-15x; a cut file's last four bytes are no trailer).
uint64_t gzipSizeGuess(const std::string& path);

// The 1-based line of each offset (sorted ascending), counting the newlines of the
// file's stream (gunzipped when it is gzip) before it in one pass; an unreadable file
// gives 0 ("unknown") for every offset.
std::vector<uint64_t> linesAtOffsets(const std::string& path, const std::vector<uint64_t>& sortedOffsets);

}  // namespace opscope
