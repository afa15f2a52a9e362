#pragma once
// Frequent kernel sequences, after Holistic Trace Analysis' get_frequent_cuda_kernel_
// sequences: for each op, the sequence of GPU events it caused (through the launches in
// its subtree, in GPU start order); ops whose (name, sequence) repeats are grouped, and
// the groups are ranked by the GPU time they take — a long sequence of small kernels run
// again and again is the first place to look for fusion (torch.compile, CUDA graphs).
//
// Which ops: with a pattern, as HTA, the ops whose names contain it, keeping only the
// shallowest such ops of each thread (an op under another match is part of its
// sequence); without one, the top-level ops (the outermost cpu_op of each thread).
// Sequences shorter than minLength (HTA's min_pattern_len, 3) or seen fewer than
// minCount (2: repeated) times are left out. HTA ranks by frequency; here by total GPU
// time, with the count beside it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct KernelSequence {
  std::string op;                    // the op's name
  std::vector<std::string> kernels;  // the GPU events' names, in GPU start order
  uint64_t count = 0;                // ops with this name and sequence
  TimeNs gpuTime = 0;                // sum of the GPU events' durations over every occurrence
  TimeNs cpuTime = 0;                // sum of the ops' durations
  EventRef longest;                  // the occurrence with the most GPU time (for the timeline)
};

struct KernelSequenceOptions {
  std::string opPattern;  // substring of the op names; empty: top-level ops
  size_t minLength = 3;
  uint64_t minCount = 2;
};

struct KernelSequences {
  KernelSequenceOptions options;
  uint64_t opsExamined = 0;
  std::vector<KernelSequence> sequences;  // GPU time descending, then count, then op
};

KernelSequences kernelSequences(const Trace& trace, std::optional<TimeWindow> window = std::nullopt,
                                const KernelSequenceOptions& options = {});

}  // namespace opscope
