#pragma once
// Top-down call tree of the CPU threads, merged by name path (the "searchable op
// tree" of the GUI): one root per thread, below it one node per distinct chain of
// names, with call counts, total and self time, and the GPU time of the GPU events
// launched from inside the node's calls.
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace opscope {

struct OpTreeNode {
  uint32_t parent = UINT32_MAX;  // UINT32_MAX for thread roots
  StringId name = 0;             // 0 for thread roots (label: trace.trackLabel(track))
  // ProfilerStep#N for every N merge into one node (name is the first step's): a tree
  // with one subtree per step would repeat the same ops for every iteration.
  bool allSteps = false;
  uint32_t track = 0;
  uint64_t calls = 0;
  TimeNs total = 0;                // sum of the calls' durations
  TimeNs self = 0;                 // total minus the children's
  TimeNs gpu = 0;                  // GPU events launched inside, through correlation
  uint64_t longest = kNoRef;       // packed EventRef of the longest call (for jumping)
  std::vector<uint32_t> children;  // sorted by total descending
};

struct OpTree {
  // Invariant: a node's parent has a smaller index, so a reverse walk is bottom-up.
  std::vector<OpTreeNode> nodes;
  std::vector<uint32_t> roots;  // one per CPU thread track with slices, by total desc
};

OpTree buildOpTree(const Trace& trace);

}  // namespace opscope
