#pragma once
// Trace::keptArgsOf for events asked in ascending order of their args' file offsets, as
// a pass over one track's rows mostly asks them (a trace's writer puts an event's args
// after the earlier events'): a galloping step along Trace::keptArgs from the last entry
// asked instead of a binary search over all of it (a million kernels and ops on 1 GB).
// Asked out of order, it searches from the start again: the answer is keptArgsOf's
// whatever the order, only slower.
#include <cstddef>

#include "model/trace.h"

namespace opscope {

class KeptArgsInOrder {
 public:
  explicit KeptArgsInOrder(const Trace& trace) : trace_(trace) {}
  const Trace::KeptArgs* of(EventRef r);

 private:
  const Trace& trace_;
  size_t at_ = 0;  // the entry of the last offset asked, or the first after it
};

}  // namespace opscope
