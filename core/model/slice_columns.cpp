#include "model/slice_columns.h"

#include <cstring>

namespace opscope {

namespace {
// Gathers into one scratch buffer shared by all columns, then copies back: the
// columns keep their (already faulted-in) memory, and fresh pages are touched once
// for the scratch instead of once per column.
template <typename T>
void applyPermutation(PodColumn<T>& column, const std::vector<uint32_t>& perm, PodColumn<uint64_t>& scratch) {
  if (column.empty()) return;
  static_assert(sizeof(T) <= sizeof(uint64_t));
  T* out = reinterpret_cast<T*>(scratch.data());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = column[perm[i]];
  std::memcpy(static_cast<void*>(column.data()), out, perm.size() * sizeof(T));
}
template <typename T>
size_t bytes(const PodColumn<T>& v) {
  return v.memoryBytes();
}
}  // namespace

void SliceColumns::permute(const std::vector<uint32_t>& perm) {
  PodColumn<uint64_t> scratch;
  scratch.resizeForOverwrite(perm.size());
  applyPermutation(start, perm, scratch);
  applyPermutation(dur, perm, scratch);
  applyPermutation(name, perm, scratch);
  applyPermutation(cat, perm, scratch);
  applyPermutation(kind, perm, scratch);
  applyPermutation(flags, perm, scratch);
  applyPermutation(depth, perm, scratch);
  applyPermutation(parent, perm, scratch);
  applyPermutation(correlation, perm, scratch);
  applyPermutation(externalId, perm, scratch);
  applyPermutation(argsOffset, perm, scratch);
  applyPermutation(argsAt, perm, scratch);
}

void SliceColumns::shrinkToFit() {
  start.shrink_to_fit();
  dur.shrink_to_fit();
  name.shrink_to_fit();
  cat.shrink_to_fit();
  kind.shrink_to_fit();
  flags.shrink_to_fit();
  depth.shrink_to_fit();
  parent.shrink_to_fit();
  correlation.shrink_to_fit();
  externalId.shrink_to_fit();
  argsOffset.shrink_to_fit();
  argsBlob.shrink_to_fit();
  argsAt.shrink_to_fit();
}

size_t SliceColumns::memoryBytes() const {
  return bytes(start) + bytes(dur) + bytes(name) + bytes(cat) + bytes(kind) + bytes(flags) + bytes(depth) +
         bytes(parent) + bytes(correlation) + bytes(externalId) + bytes(argsOffset) + bytes(argsBlob) + bytes(argsAt);
}

}  // namespace opscope
