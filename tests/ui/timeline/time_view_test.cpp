#include "timeline/time_view.h"

#include <gtest/gtest.h>

namespace opscope::ui {
namespace {

TEST(TimeView, PixelAndTimeRoundTrip) {
  const TimeView v{1'000'000, 250.0};
  EXPECT_DOUBLE_EQ(v.toPx(1'000'000), 0);
  EXPECT_DOUBLE_EQ(v.toPx(1'250'000), 1000);
  EXPECT_EQ(v.toTime(1000), 1'250'000);
  EXPECT_EQ(v.toTime(-4), 999'000);
  // Epoch-scale timestamps (16 digits of µs) keep ns precision.
  const TimeView epoch{1'683'564'902'133'354'123, 0.5};
  EXPECT_EQ(epoch.toTime(epoch.toPx(1'683'564'902'133'354'999)), 1'683'564'902'133'354'999);
}

struct ZoomCase {
  double cursor, factor;
};
// Cases are named by their values (gtest would print the structs' bytes, padding and
// addresses included, a different name from one build to the next).
void PrintTo(const ZoomCase& c, std::ostream* os) { *os << "cursor " << c.cursor << " x" << c.factor; }

class ZoomAt : public ::testing::TestWithParam<ZoomCase> {};

TEST_P(ZoomAt, KeepsTheTimeUnderTheCursor) {
  const TimeView v{5'000'000, 1000.0};
  const auto [cursor, factor] = GetParam();
  const TimeView z = zoomAt(v, cursor, factor);
  EXPECT_NEAR(static_cast<double>(z.toTime(cursor)), static_cast<double>(v.toTime(cursor)), 1.0);
  EXPECT_NEAR(z.nsPerPx, std::max(kMinNsPerPx, 1000.0 / factor), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Cases, ZoomAt,
                         ::testing::Values(ZoomCase{0, 2}, ZoomCase{800, 2}, ZoomCase{123.5, 1.35}, ZoomCase{1600, 0.5},
                                           ZoomCase{10, 1e9} /* clamped at kMinNsPerPx */));

TEST(TimeView, FitShowsTheSpanWithMargins) {
  const TimeView v = fitView(1000, 11'000, 1000, 0.05);
  EXPECT_LE(v.toPx(1000), 50.5);
  EXPECT_GE(v.toPx(1000), 40);
  EXPECT_GE(v.toPx(11'000), 950);
  EXPECT_LE(v.toPx(11'000), 960);
  // A zero-length span still gets a usable zoom.
  const TimeView point = fitView(500, 500, 1000);
  EXPECT_GT(point.nsPerPx, 0);
  EXPECT_GT(point.toPx(500), 0);
  EXPECT_LT(point.toPx(500), 1000);
}

TEST(TimeView, ClampKeepsTheTraceOnScreen) {
  // Zoomed out past the whole trace: back to the fit.
  const TimeView whole = fitView(0, 1'000'000, 1000);
  const TimeView out = clampView({-5'000'000, 1e6}, 0, 1'000'000, 1000);
  EXPECT_EQ(out, whole);
  // Scrolled far to the right: the trace's end stays within the view.
  const TimeView right = clampView({50'000'000, 10.0}, 0, 1'000'000, 1000);
  EXPECT_LE(right.toPx(1'000'000), 1000);
  EXPECT_GE(right.toPx(1'000'000), 0);
  const TimeView left = clampView({-50'000'000, 10.0}, 0, 1'000'000, 1000);
  EXPECT_GE(left.toPx(0), 0);
  EXPECT_LE(left.toPx(0), 1000);
  // Not below the finest zoom.
  EXPECT_EQ(clampView({0, 1e-6}, 0, 1'000'000, 1000).nsPerPx, kMinNsPerPx);
}

struct StepCase {
  double in;
  TimeNs out;
};
void PrintTo(const StepCase& c, std::ostream* os) { *os << c.in; }

class NiceStep : public ::testing::TestWithParam<StepCase> {};

TEST_P(NiceStep, OneTwoFiveTimesPowersOfTen) { EXPECT_EQ(niceStep(GetParam().in), GetParam().out); }

INSTANTIATE_TEST_SUITE_P(Cases, NiceStep,
                         ::testing::Values(StepCase{0.3, 1}, StepCase{1, 1}, StepCase{1.5, 2}, StepCase{3, 5},
                                           StepCase{7, 10}, StepCase{90, 100}, StepCase{101, 200}, StepCase{499, 500},
                                           StepCase{2.1e9, 5'000'000'000}));

struct TickCase {
  TimeNs t, step;
  const char* text;
};
void PrintTo(const TickCase& c, std::ostream* os) { *os << c.t << " ns by " << c.step << " ns"; }

class FormatTick : public ::testing::TestWithParam<TickCase> {};

TEST_P(FormatTick, UnitAndDecimalsFollowTheStep) {
  EXPECT_EQ(formatTick(GetParam().t, GetParam().step), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FormatTick,
    ::testing::Values(TickCase{0, 100, "0"}, TickCase{200, 100, "200 ns"}, TickCase{1500, 500, "1.5 \xC2\xB5s"},
                      TickCase{2000, 1000, "2 \xC2\xB5s"}, TickCase{250'000, 50'000, "250 \xC2\xB5s"},
                      TickCase{1'500'000, 500'000, "1.5 ms"}, TickCase{12'000'000, 2'000'000, "12 ms"},
                      TickCase{3'000'000'000, 1'000'000'000, "3 s"}, TickCase{40, 20, "40 ns"},
                      TickCase{1020, 20, "1.02 \xC2\xB5s"}, TickCase{874'900'000, 100'000, "874.9 ms"},
                      TickCase{-2000, 1000, "-2 \xC2\xB5s"}));

struct DurCase {
  TimeNs ns;
  const char* text;
};
void PrintTo(const DurCase& c, std::ostream* os) { *os << c.ns << " ns"; }

class FormatDuration : public ::testing::TestWithParam<DurCase> {};

TEST_P(FormatDuration, ThreeSignificantDigits) { EXPECT_EQ(formatDuration(GetParam().ns), GetParam().text); }

INSTANTIATE_TEST_SUITE_P(Cases, FormatDuration,
                         ::testing::Values(DurCase{0, "0 ns"}, DurCase{812, "812 ns"}, DurCase{5100, "5.10 \xC2\xB5s"},
                                           DurCase{12'345'678, "12.3 ms"}, DurCase{1'250'000'000, "1.25 s"},
                                           DurCase{250'000, "250 \xC2\xB5s"}));

TEST(TimeView, RulerTicksAreEvenlySpacedAndLabelledFromTheOrigin) {
  const TimeView v{1'000'000, 1000.0};  // 1 µs per px, starting 1 ms after the origin
  const Ruler r = rulerTicks(v, 1000, 0, 90);
  EXPECT_EQ(r.step, 100'000);  // 90 px = 90 µs -> 100 µs
  ASSERT_GE(r.ticks.size(), 9u);
  EXPECT_EQ(r.ticks[0].label, "1.0 ms");
  EXPECT_DOUBLE_EQ(r.ticks[0].x, 0);
  for (size_t k = 1; k < r.ticks.size(); ++k) {
    EXPECT_NEAR(r.ticks[k].x - r.ticks[k - 1].x, 100, 1e-9);
    EXPECT_GE(r.ticks[k].x, 0);
    EXPECT_LE(r.ticks[k].x, 1000);
  }
  // Before the origin: negative offsets, ticks still on multiples of the step.
  const Ruler before = rulerTicks({-150, 1.0}, 300, 0, 90);
  EXPECT_EQ(before.step, 100);
  EXPECT_EQ(before.ticks.front().t, -100);
  EXPECT_EQ(before.ticks.front().label, "-100 ns");
}

// Preferences ▸ Time unit: a fixed unit shows every duration and tick in it, small
// values keeping three significant digits; Auto is back to the unit that suits each.
TEST(TimeView, AFixedTimeUnitShowsEveryDurationAndTickInIt) {
  struct Restore {
    ~Restore() { setTimeUnit(TimeUnit::Auto); }
  } restore;
  setTimeUnit(TimeUnit::Ms);
  EXPECT_EQ(formatDuration(812), "0.000812 ms");
  EXPECT_EQ(formatDuration(5100), "0.00510 ms");
  EXPECT_EQ(formatDuration(12'345'678), "12.3 ms");
  EXPECT_EQ(formatDuration(1'250'000'000), "1250 ms");
  EXPECT_EQ(formatTick(1'500'000, 500'000), "1.5 ms");
  EXPECT_EQ(formatTick(3'000'000'000, 1'000'000'000), "3000 ms");
  EXPECT_EQ(formatTick(1500, 500), "0.0015 ms");
  setTimeUnit(TimeUnit::Us);
  EXPECT_EQ(formatDuration(12'345'678), "12346 \xC2\xB5s");
  EXPECT_EQ(formatDuration(812), "0.812 \xC2\xB5s");
  setTimeUnit(TimeUnit::Ns);
  EXPECT_EQ(formatDuration(5100), "5100 ns");
  EXPECT_EQ(formatTick(1'500'000, 500'000), "1500000 ns");
  setTimeUnit(TimeUnit::Auto);
  EXPECT_EQ(formatDuration(5100), "5.10 \xC2\xB5s");
  EXPECT_EQ(formatTick(3'000'000'000, 1'000'000'000), "3 s");
}

}  // namespace
}  // namespace opscope::ui
