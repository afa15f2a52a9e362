#pragma once
// Which op each host event belongs to, computed once per trace for the analyses that
// attribute time to ops (overheads, op kernel mixes, device-time breakdown).
//
// "Top-level op" follows the DLRM notebook's get_operators: the outermost cpu_op on its
// thread; annotations, python functions and ProfilerStep spans above it are context,
// not ops, and cpu_ops below it are its sub-events.
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace opscope {

class OpIndex {
 public:
  explicit OpIndex(const Trace& trace);

  // Row of the outermost cpu_op enclosing row (row itself when it is one) on a CPU
  // thread track, -1 when there is none or track is not a thread.
  int32_t topOp(uint32_t track, uint32_t row) const {
    const auto& v = topOp_[track];
    return row < v.size() ? v[row] : -1;
  }
  bool isTopOp(uint32_t track, uint32_t row) const { return topOp(track, row) == static_cast<int32_t>(row); }
  // A launch that started at least one GPU event (by correlation): the notebook's
  // cudaLaunchKernel / cudaMemcpyAsync, generalised to any runtime or driver call
  // (cuLaunchKernel, hipLaunchKernel, cudaMemsetAsync, graph launches).
  bool isLaunch(EventRef ref) const;

 private:
  const Trace& trace_;
  std::vector<std::vector<int32_t>> topOp_;
};

}  // namespace opscope
