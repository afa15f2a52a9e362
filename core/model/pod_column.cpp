#include "model/pod_column.h"

#include <sys/mman.h>

#include <cstdlib>

namespace opscope::podcolumn_detail {

namespace {
// Below this a column stays on the malloc heap; above it gets a mapping of its own, in
// whole 2 MiB units (kMapUnit): a column grows by doubling, so rounding up costs little
// and mremap has room to grow in place.
constexpr size_t kMapThreshold = 1u << 20;
constexpr size_t kMapUnit = 2u << 20;

size_t roundUp(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

// No MADV_HUGEPAGE here, unlike operator new's blocks (app/malloc_policy.h). A column's
// pages are the first the process touches and stay for its life: on a VM whose balloon
// takes back free 2 MiB blocks (free page reporting from order 9, as here), every huge
// page is one the host must back first (2.7 ms a MiB measured), while 4 KiB pages come
// from the guest's smaller free blocks, still backed (0.6 ms a MiB). The 1 GB load's
// parse took 12-15 % less without the advice (docs/performance.md, "Columns on 4 KiB
// pages"); on a machine without such a host, huge pages would save about 2 % of it.
void* mapFresh(size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}
}  // namespace

void* allocate(size_t bytes, size_t& granted) {
  if (bytes == 0) {
    granted = 0;
    return nullptr;
  }
  if (bytes < kMapThreshold) {
    void* p = std::malloc(bytes);
    if (!p) throw std::bad_alloc();
    granted = bytes;
    return p;
  }
  granted = roundUp(bytes, kMapUnit);
  return mapFresh(granted);
}

void* reallocate(void* p, size_t oldGranted, size_t used, size_t bytes, size_t& granted) {
  const bool wasMapped = oldGranted >= kMapThreshold;
  if (bytes < kMapThreshold) {
    if (!wasMapped) {
      void* q = std::realloc(p, bytes == 0 ? 1 : bytes);
      if (!q) throw std::bad_alloc();
      granted = bytes;
      return q;
    }
    void* q = allocate(bytes, granted);
    std::memcpy(q, p, used < bytes ? used : bytes);
    release(p, oldGranted);
    return q;
  }
  const size_t want = roundUp(bytes, kMapUnit);
  if (!wasMapped) {
    void* q = mapFresh(want);
    std::memcpy(q, p, used);
    std::free(p);
    granted = want;
    return q;
  }
  void* q = ::mremap(p, oldGranted, want, MREMAP_MAYMOVE);
  if (q == MAP_FAILED) throw std::bad_alloc();
  granted = want;
  return q;
}

void release(void* p, size_t granted) {
  if (!p) return;
  if (granted >= kMapThreshold) ::munmap(p, granted);
  else std::free(p);
}

}  // namespace opscope::podcolumn_detail
