#include "timeline/colors.h"

#include <algorithm>
#include <cmath>

namespace opscope::ui {

namespace {

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

Rgb hsl(double h, double s, double l) {
  const double c = (1 - std::abs(2 * l - 1)) * s;
  const double hp = h / 60.0;
  const double x = c * (1 - std::abs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (hp < 1) r = c, g = x;
  else if (hp < 2) r = x, g = c;
  else if (hp < 3) g = c, b = x;
  else if (hp < 4) g = x, b = c;
  else if (hp < 5) r = x, b = c;
  else r = c, b = x;
  const double m = l - c / 2;
  auto to8 = [](double v) { return static_cast<uint8_t>(std::clamp(std::lround(v * 255), 0l, 255l)); };
  return {to8(r + m), to8(g + m), to8(b + m)};
}

double channel(uint8_t v) {
  const double c = v / 255.0;
  return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

}  // namespace

double relativeLuminance(Rgb c) { return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b); }

double contrastRatio(Rgb a, Rgb b) {
  double la = relativeLuminance(a), lb = relativeLuminance(b);
  if (la < lb) std::swap(la, lb);
  return (la + 0.05) / (lb + 0.05);
}

Rgb textColorOn(Rgb background) {
  const Rgb black{0, 0, 0}, white{255, 255, 255};
  return contrastRatio(background, black) >= contrastRatio(background, white) ? black : white;
}

Rgb colorForName(std::string_view name, Theme theme) {
  const uint64_t h = fnv1a(name);
  const double hue = static_cast<double>(h % 360);
  const double sat = 0.45 + static_cast<double>((h >> 16) % 20) / 100.0;
  // Light theme: pastel fills under black text; dark theme: deep fills under white.
  double light = theme == Theme::Light ? 0.72 + static_cast<double>((h >> 24) % 10) / 100.0
                                       : 0.30 + static_cast<double>((h >> 24) % 8) / 100.0;
  Rgb c = hsl(hue, sat, light);
  const Rgb text = theme == Theme::Light ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
  // Yellows and greens are bright at any lightness, blues dark: nudge until readable.
  for (int k = 0; k < 20 && contrastRatio(c, text) < 4.5; ++k) {
    light += theme == Theme::Light ? 0.02 : -0.02;
    c = hsl(hue, sat, std::clamp(light, 0.0, 1.0));
  }
  return c;
}

const Palette& paletteFor(Theme theme) {
  static const Palette light{
      {255, 255, 255}, {246, 247, 249}, {232, 235, 240}, {30, 34, 40},    {40, 44, 52},   {226, 229, 234},
      {250, 250, 251}, {70, 76, 86},    {0, 90, 200},    {255, 140, 0},   {60, 130, 230}, {200, 40, 40},
      {150, 156, 168}, {70, 140, 210},  {52, 73, 102},   {255, 255, 255},
  };
  static const Palette dark{
      {30, 32, 36},    {38, 41, 46},    {48, 52, 59},   {225, 228, 233}, {210, 214, 220}, {52, 56, 63},
      {36, 39, 44},    {185, 190, 198}, {90, 170, 255}, {255, 170, 40},  {90, 160, 255},  {255, 110, 100},
      {105, 112, 124}, {90, 160, 230},  {64, 88, 124},  {240, 244, 250},
  };
  return theme == Theme::Light ? light : dark;
}

}  // namespace opscope::ui
