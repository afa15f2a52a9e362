#include "timeline/colors.h"

#include <gtest/gtest.h>

#include <string>

namespace opscope::ui {
namespace {

TEST(Colors, StablePerNameAndDistinctAcrossNames) {
  EXPECT_EQ(colorForName("aten::addmm", Theme::Light), colorForName("aten::addmm", Theme::Light));
  EXPECT_NE(colorForName("aten::addmm", Theme::Light), colorForName("aten::mm", Theme::Light));
  EXPECT_NE(colorForName("aten::addmm", Theme::Light), colorForName("aten::addmm", Theme::Dark));
}

TEST(Colors, TextStaysReadableOnEveryNameColour) {
  for (Theme theme : {Theme::Light, Theme::Dark}) {
    for (int i = 0; i < 2000; ++i) {
      const Rgb c = colorForName("kernel_" + std::to_string(i), theme);
      const Rgb text = textColorOn(c);
      EXPECT_GE(contrastRatio(c, text), 4.5) << i;
    }
  }
}

TEST(Colors, ContrastAndLuminanceMatchWcag) {
  EXPECT_NEAR(relativeLuminance({255, 255, 255}), 1.0, 1e-9);
  EXPECT_NEAR(relativeLuminance({0, 0, 0}), 0.0, 1e-9);
  EXPECT_NEAR(contrastRatio({0, 0, 0}, {255, 255, 255}), 21.0, 1e-9);
  EXPECT_EQ(textColorOn({250, 250, 120}), (Rgb{0, 0, 0}));
  EXPECT_EQ(textColorOn({20, 30, 90}), (Rgb{255, 255, 255}));
  // The chrome's text on its own background.
  for (Theme theme : {Theme::Light, Theme::Dark}) {
    const Palette& p = paletteFor(theme);
    EXPECT_GE(contrastRatio(p.headerText, p.headerBackground), 7.0);
    EXPECT_GE(contrastRatio(p.trackText, p.gutter), 7.0);
    EXPECT_GE(contrastRatio(p.rulerText, p.ruler), 4.5);
  }
}

}  // namespace
}  // namespace opscope::ui
