#include "model/pod_column.h"

#include <gtest/gtest.h>

#include <cstdint>

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
