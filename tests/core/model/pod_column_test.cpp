#include "model/pod_column.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>

#include "vm_flags.h"

namespace opscope {
namespace {

TEST(PodColumn, GrowsAcrossTheHeapToMappingBoundaryKeepingValues) {
  PodColumn<int64_t> c;
  const int64_t n = 3'000'000;  // 24 MB: heap first, then a mapping grown by mremap
  for (int64_t i = 0; i < n; ++i) c.push_back(i * 3 - 7);
  ASSERT_EQ(c.size(), static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i += 9973) ASSERT_EQ(c[static_cast<size_t>(i)], i * 3 - 7);
  EXPECT_EQ(c.back(), (n - 1) * 3 - 7);
  c.shrink_to_fit();
  EXPECT_EQ(c.size(), static_cast<size_t>(n));
  EXPECT_EQ(c[12345], 12345 * 3 - 7);
  EXPECT_GE(c.memoryBytes(), c.size() * sizeof(int64_t));
}

TEST(PodColumn, ShrinksFromMappingBackToHeap) {
  PodColumn<uint8_t> c;
  c.resize(5 << 20);
  c[100] = 42;
  c.resize(1000);
  c.shrink_to_fit();
  EXPECT_EQ(c.size(), 1000u);
  EXPECT_EQ(c[100], 42);
  EXPECT_EQ(c[999], 0);
}

// A large column is a mapping of its own that does not ask for huge pages (see
// model/pod_column.cpp: on this project's VMs a fresh huge page costs 4x a 4 KiB one),
// and growing it by mremap keeps it so.
TEST(PodColumn, ALargeColumnIsAMappingThatAsksForNoHugePages) {
  if (!std::ifstream("/proc/self/smaps")) GTEST_SKIP() << "no /proc/self/smaps";
  PodColumn<uint64_t> c;
  c.resizeForOverwrite(1u << 20);  // 8 MiB: past the heap's share
  c[0] = 1;
  const std::string flags = test::vmFlagsAt(reinterpret_cast<std::uintptr_t>(c.data()));
  ASSERT_FALSE(flags.empty()) << "no mapping holds the column";
  EXPECT_FALSE(test::hasVmFlag(flags, "hg")) << flags;
  c.resizeForOverwrite(4u << 20);  // 32 MiB, by mremap
  c[c.size() - 1] = 2;
  const std::string grown = test::vmFlagsAt(reinterpret_cast<std::uintptr_t>(c.data() + c.size() - 1));
  ASSERT_FALSE(grown.empty());
  EXPECT_FALSE(test::hasVmFlag(grown, "hg")) << grown;
  EXPECT_EQ(c[0], 1u);
}

TEST(PodColumn, CopyMoveAssignAppend) {
  PodColumn<uint16_t> a{1, 2, 3};
  PodColumn<uint16_t> b = a;
  b.push_back(4);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b.size(), 4u);
  PodColumn<uint16_t> c = std::move(b);
  EXPECT_EQ(c, (PodColumn<uint16_t>{1, 2, 3, 4}));
  c.assign(2, 9);
  EXPECT_EQ(c, (PodColumn<uint16_t>{9, 9}));
  const uint16_t more[] = {7, 8};
  c.append(more, 2);
  EXPECT_EQ(c, (PodColumn<uint16_t>{9, 9, 7, 8}));
  c.clear();
  c.shrink_to_fit();
  EXPECT_EQ(c.capacity(), 0u);
  EXPECT_TRUE(c.empty());
}

}  // namespace
}  // namespace opscope
