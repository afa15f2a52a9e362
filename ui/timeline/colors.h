#pragma once
// Colours of the timeline: a stable colour per event name (the same name gets the same
// colour in every run and every trace), text that stays readable on it, and the light
// and dark palettes of the surrounding chrome.
#include <cstdint>
#include <string_view>

namespace opscope::ui {

enum class Theme : uint8_t { Light, Dark };

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

// Hue from a hash of the name; saturation and lightness chosen per theme so that
// black (light theme) or white (dark theme) text keeps a WCAG contrast >= 4.5.
Rgb colorForName(std::string_view name, Theme theme);

// WCAG relative luminance in [0, 1].
double relativeLuminance(Rgb c);
double contrastRatio(Rgb a, Rgb b);

// Black or white, whichever contrasts more with the background.
Rgb textColorOn(Rgb background);

struct Palette {
  Rgb background, gutter, headerBackground, headerText, trackText, gridLine, ruler, rulerText;
  Rgb selection, searchHit, areaFill, arrow, folded, counterFill;
  Rgb rankHeaderBackground, rankHeaderText;  // a rank's group in a multi-rank session
};

const Palette& paletteFor(Theme theme);

}  // namespace opscope::ui
