#include "model/slice_columns.h"

namespace opscope {

namespace {
template <typename T>
void applyPermutation(PodColumn<T>& column, const std::vector<uint32_t>& perm) {
  if (column.empty()) return;
  PodColumn<T> out;
  out.resizeForOverwrite(column.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = column[perm[i]];
  column.swap(out);
}
template <typename T>
size_t bytes(const PodColumn<T>& v) { return v.memoryBytes(); }
}  // namespace

void SliceColumns::permute(const std::vector<uint32_t>& perm) {
  applyPermutation(start, perm);
  applyPermutation(dur, perm);
  applyPermutation(name, perm);
  applyPermutation(cat, perm);
  applyPermutation(kind, perm);
  applyPermutation(flags, perm);
  applyPermutation(depth, perm);
  applyPermutation(parent, perm);
  applyPermutation(correlation, perm);
  applyPermutation(externalId, perm);
  applyPermutation(argsOffset, perm);
  applyPermutation(argsAt, perm);
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
  return bytes(start) + bytes(dur) + bytes(name) + bytes(cat) + bytes(kind) + bytes(flags) +
         bytes(depth) + bytes(parent) + bytes(correlation) + bytes(externalId) +
         bytes(argsOffset) + bytes(argsBlob) + bytes(argsAt);
}

}  // namespace opscope
