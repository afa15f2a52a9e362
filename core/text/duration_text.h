#pragma once
// Durations and times as text, in one place for every front end. Two styles:
//  - reportDuration: the command line's text reports (summary, diff, advise,
//    critical-path): the unit that suits the magnitude, always three decimals
//    ("12.345 ms", "5.100 µs"), whole nanoseconds below a microsecond ("812 ns");
//  - formatDuration / formatTick: the window, in the unit the user picked
//    (Preferences ▸ Time unit) passed as a parameter: Auto picks the unit that suits
//    each value; a fixed unit shows every value in it with at least three significant
//    digits ("0.000812 ms").
// Nanoseconds are int64 (the model's TimeNs); negative durations keep their sign.
#include <cstdint>
#include <string>

namespace opscope {

enum class TimeUnit { Auto, Ns, Us, Ms, S };

std::string reportDuration(int64_t ns);

// "812 ns", "5.10 µs", "12.3 ms", "1.25 s" (Auto).
std::string formatDuration(int64_t ns, TimeUnit unit);

// A ruler tick t (ns) in the unit that suits twice the step (or t, when larger), with
// as many decimals as the step needs.
std::string formatTick(int64_t t, int64_t step, TimeUnit unit);

}  // namespace opscope
