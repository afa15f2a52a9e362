// The process's allocation policy (app/malloc_policy.h): which part of a block asks for
// huge pages, and that operator new, replaced in this binary as in opscope's, asks.
#include "malloc_policy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "vm_flags.h"

namespace opscope::app {
namespace {

constexpr std::size_t kUnit = kHugePageBytes;

const void* at(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }

TEST(HugePageSpan, OnlyWholeAlignedUnitsInsideTheBlock) {
  // Under one unit: none, aligned or not.
  EXPECT_EQ(hugePageSpan(at(kUnit), kUnit - 1).end, 0u);
  EXPECT_EQ(hugePageSpan(at(kUnit + 16), kUnit).end, 0u);  // straddles an edge, holds no whole unit
  // Exactly one aligned unit.
  HugeSpan s = hugePageSpan(at(kUnit), kUnit);
  EXPECT_EQ(s.begin, kUnit);
  EXPECT_EQ(s.end, 2 * kUnit);
  // A block as malloc returns a mapped one (16 bytes past a page): the units inside.
  s = hugePageSpan(at(3 * kUnit + 16), 4 * kUnit);
  EXPECT_EQ(s.begin, 4 * kUnit);
  EXPECT_EQ(s.end, 7 * kUnit);
  s = hugePageSpan(at(kUnit - 4096 + 16), 2 * kUnit);
  EXPECT_EQ(s.begin, kUnit);
  EXPECT_EQ(s.end, 2 * kUnit);
  // A block ending at the top of the address space does not wrap.
  EXPECT_EQ(hugePageSpan(at(UINTPTR_MAX - kUnit), 2 * kUnit).end, 0u);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPSCOPE_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define OPSCOPE_TEST_SANITIZED 1
#endif

TEST(MallocPolicy, ABigBlockFromNewAsksForHugePagesAndASmallOneDoesNot) {
#ifdef OPSCOPE_TEST_SANITIZED
  GTEST_SKIP() << "the sanitizer's runtime owns operator new";
#endif
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  applyMallocPolicy();
  // 8 MiB through operator new[] (libstdc++'s calls operator new).
  const std::size_t n = 8u << 20;
  std::unique_ptr<char[]> big(new char[n]);
  const HugeSpan s = hugePageSpan(big.get(), n);
  ASSERT_LT(s.begin, s.end);
  const std::string flags = test::vmFlagsAt(s.begin);
  ASSERT_FALSE(flags.empty()) << "no mapping holds the block";
  EXPECT_TRUE(test::hasVmFlag(flags, "hg")) << flags;
  // A block under 2 MiB (its own mapping too, past the 128 KiB threshold) is left alone.
  std::unique_ptr<char[]> small(new char[1u << 20]);
  const std::string smallFlags = test::vmFlagsAt(reinterpret_cast<std::uintptr_t>(small.get()) + 4096);
  ASSERT_FALSE(smallFlags.empty());
  EXPECT_FALSE(test::hasVmFlag(smallFlags, "hg")) << smallFlags;
}

}  // namespace
}  // namespace opscope::app
