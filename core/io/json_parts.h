#pragma once
// Where a plain JSON trace file can be cut for parallel loading, and the line numbers
// of byte offsets the parts report without counting lines themselves.
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

// The 1-based line of each offset (sorted ascending), counting the file's newlines
// before it in one pass; an unreadable file gives 0 ("unknown") for every offset.
std::vector<uint64_t> linesAtOffsets(const std::string& path, const std::vector<uint64_t>& sortedOffsets);

}  // namespace opscope
