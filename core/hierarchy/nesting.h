#pragma once
// Depth and parent of every slice of one track.
//
// CPU threads: nesting by time containment with a stack (rows are sorted by start asc,
// dur desc, so a parent precedes its children). A slice that starts inside the open
// slice but ends after it (a "crossover") is kept: it gets that slice as parent and
// the flag kFlagCrossover, is not pushed (so it never becomes a parent), and views
// draw it on the track's overflow row.
// GPU streams and async tracks: overlapping slices go to the first free sub-lane
// (greedy interval colouring), parent -1.
#include <cstdint>

#include "model/trace.h"

namespace opscope {

// Returns the number of crossovers found.
uint64_t nestByContainment(SliceColumns& s, uint16_t& maxDepth);
void assignLanes(SliceColumns& s, uint16_t& laneCount);

}  // namespace opscope
