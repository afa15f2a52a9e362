#pragma once
// How the process asks glibc's malloc for memory (applied first thing in main, for the
// window and every command alike).
#include <cstddef>

namespace opscope::app {

// Blocks of 128 KiB and more always come from their own mapping, returned to the system
// when freed. glibc's default raises that threshold (up to 32 MiB) each time such a
// block is freed, after which the large blocks of a load (a growing array of 100,000
// tracks, the JSON reader's windows) come from the heap and, freed, stay resident
// beside what follows. Measured peak RSS: the window on a trace of 10^6 one-event
// threads 332 -> 307 MiB, on the 1 GB generated trace 259 -> 243 MiB; `summary --json`
// on 1 GB unchanged (docs/performance.md).
void applyMallocPolicy();

// Where transparent huge pages are asked for (madvise MADV_HUGEPAGE) in a block of n
// bytes at p: the whole 2 MiB units inside it, [begin, end); begin == end when none
// fits (a block under 2 MiB, or one straddling a unit's edge).
struct HugeSpan {
  std::size_t begin = 0, end = 0;
};
HugeSpan hugePageSpan(const void* p, std::size_t n);

// The process's operator new (malloc_policy.cpp replaces the global one, except in
// sanitizer builds, whose runtime owns it): malloc, and for a block of 2 MiB or more,
// huge pages asked for over hugePageSpan. The analyses' big arrays (the critical path's
// events, nodes and edges: about a gigabyte of fresh memory on a 1 GB trace) are
// std::vectors; with 4 KiB pages each first touch of a page is a fault (this kernel only
// gives huge pages to memory that asks: transparent_hugepage=madvise). The model's
// columns do not ask (model/pod_column.cpp says why). A block is mapped on its own (the
// 128 KiB threshold above) and unmapped when freed, so the advice leaves with it.
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

}  // namespace opscope::app
