// How a counter track writes its values (the gutter's "max", the memory peak).
#include <gtest/gtest.h>

#include "timeline/timeline_renderer.h"

namespace opscope::ui {
namespace {

TEST(CounterValue, SmallMemoryValuesReadInBytesOrKiB) {
  // An 8-byte CPU allocation peak, recorded in MiB by the memory track.
  EXPECT_EQ(counterValueText(8.0 / (1024 * 1024), true), "8 B");
  EXPECT_EQ(counterValueText(1023.0 / (1024 * 1024), true), "1023 B");
  EXPECT_EQ(counterValueText(0.05, true), "51.2 KiB");
  // From 0.1 MiB on, and for every other counter, four significant digits.
  EXPECT_EQ(counterValueText(0.1, true), "0.1");
  EXPECT_EQ(counterValueText(3025.0, true), "3025");
  EXPECT_EQ(counterValueText(5584.25, true), "5584");
  EXPECT_EQ(counterValueText(0.05, false), "0.05");
  EXPECT_EQ(counterValueText(0.0, true), "0");
  EXPECT_EQ(counterValueText(100.0, false), "100");
}

}  // namespace
}  // namespace opscope::ui
