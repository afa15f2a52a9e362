#pragma once
// How the process asks glibc's malloc for memory (applied first thing in main, for the
// window and every command alike).
namespace opscope::app {

// Blocks of 128 KiB and more always come from their own mapping, returned to the system
// when freed. glibc's default raises that threshold (up to 32 MiB) each time such a
// block is freed, after which the large blocks of a load (a growing array of 100,000
// tracks, the JSON reader's windows) come from the heap and, freed, stay resident
// beside what follows. Measured peak RSS: the window on a trace of 10^6 one-event
// threads 332 -> 307 MiB, on the 1 GB generated trace 259 -> 243 MiB; `summary --json`
// on 1 GB unchanged (docs/performance.md).
void applyMallocPolicy();

}  // namespace opscope::app
