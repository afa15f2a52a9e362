#pragma once
// Struct-of-arrays storage of one track's slices.
//
// Invariants once the trace is finalized:
//  - rows are sorted by (start ascending, dur descending, file order) so a parent
//    always precedes its children and the visible range is two binary searches away;
//  - depth/parent are filled (CPU: nesting by containment; GPU: sub-lane per overlap);
//  - args of row i are a self-delimiting record at argsBlob[argsOffset[i]] (see args.h);
//    kNoArgs (a track past 4 GiB of args, never seen in practice) decodes as no args.
//    Lazy traces (plain files) instead fill argsAt: the byte offset of the row's args
//    object in the file (kNoArgsAt: none), and leave argsOffset/argsBlob empty.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/ids.h"
#include "model/pod_column.h"

namespace opscope {

struct SliceColumns {
  PodColumn<TimeNs> start;
  PodColumn<TimeNs> dur;
  PodColumn<StringId> name;
  PodColumn<StringId> cat;
  PodColumn<SliceKind> kind;
  PodColumn<uint8_t> flags;
  PodColumn<uint16_t> depth;       // CPU: nesting depth; GPU: sub-lane
  PodColumn<int32_t> parent;       // row of the enclosing slice, -1 for roots
  PodColumn<int64_t> correlation;  // args.correlation or kNoId
  PodColumn<int64_t> externalId;   // args["External id"] / ["external id"] or kNoId
  static constexpr uint32_t kNoArgs = 0xFFFFFFFFu;
  PodColumn<uint32_t> argsOffset;
  PodColumn<uint8_t> argsBlob;
  static constexpr uint64_t kNoArgsAt = ~0ull;
  PodColumn<uint64_t> argsAt;

  size_t size() const { return start.size(); }
  TimeNs end(size_t i) const { return start[i] + dur[i]; }

  // First row whose start is >= t.
  size_t lowerBound(TimeNs t) const {
    return static_cast<size_t>(std::lower_bound(start.begin(), start.end(), t) - start.begin());
  }
  // First row whose start is > t.
  size_t upperBound(TimeNs t) const {
    return static_cast<size_t>(std::upper_bound(start.begin(), start.end(), t) - start.begin());
  }

  // Reorders every column by perm (new row i = old row perm[i]).
  void permute(const std::vector<uint32_t>& perm);
  void shrinkToFit();
  size_t memoryBytes() const;
};

}  // namespace opscope
