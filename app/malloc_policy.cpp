#include "malloc_policy.h"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace opscope::app {

void applyMallocPolicy() {
  // Setting it also turns off the dynamic adjustment of this and of the trim threshold.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

HugeSpan hugePageSpan(const void* p, std::size_t n) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (n < kHugePageBytes || at > UINTPTR_MAX - n) return {};
  const std::uintptr_t begin = (at + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const std::uintptr_t end = (at + n) / kHugePageBytes * kHugePageBytes;
  if (end <= begin) return {};
  return {static_cast<std::size_t>(begin), static_cast<std::size_t>(end)};
}

}  // namespace opscope::app

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define OPSCOPE_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OPSCOPE_SANITIZED_ALLOCATOR 1
#endif

#ifndef OPSCOPE_SANITIZED_ALLOCATOR
// The replaceable global operator new and delete, and new's nothrow form (libstdc++'s
// array forms call these; std::stable_sort's buffer comes from the nothrow form). The
// library's delete and nothrow new would pair with this new as well (they free with
// free() and call operator new): they are replaced beside it so that what allocates and
// what frees are defined in one place. Aligned forms (align_val_t) keep the library's.
void* operator new(std::size_t n) {
  for (;;) {
    if (void* p = std::malloc(n == 0 ? 1 : n)) {
      const opscope::app::HugeSpan s = opscope::app::hugePageSpan(p, n);
      // Advice only: a kernel without THP (or with it off) answers EINVAL, and the block
      // is as good with small pages.
      if (s.end > s.begin) ::madvise(reinterpret_cast<void*>(s.begin), s.end - s.begin, MADV_HUGEPAGE);
      return p;
    }
    const std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
  }
}

void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(n);
  } catch (...) {
    return nullptr;
  }
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif
