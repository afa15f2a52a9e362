#include "text/duration_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace opscope {

namespace {

struct Unit {
  double scale;
  const char* suffix;
};

Unit unitFor(int64_t magnitude, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Ns:
      return {1, "ns"};
    case TimeUnit::Us:
      return {1e3, "\xC2\xB5s"};
    case TimeUnit::Ms:
      return {1e6, "ms"};
    case TimeUnit::S:
      return {1e9, "s"};
    case TimeUnit::Auto:
      break;
  }
  if (magnitude < 1000) return {1, "ns"};
  if (magnitude < 1000000) return {1e3, "\xC2\xB5s"};
  if (magnitude < 1000000000) return {1e6, "ms"};
  return {1e9, "s"};
}

std::string fixed(double value, int decimals, const char* suffix) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value, suffix);
  return buf;
}

}  // namespace

std::string reportDuration(int64_t ns) {
  char buf[64];
  const double v = static_cast<double>(ns);
  const int64_t a = ns < 0 ? -ns : ns;
  if (a >= 1000000000) std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
  else if (a >= 1000000) std::snprintf(buf, sizeof buf, "%.3f ms", v / 1e6);
  else if (a >= 1000) std::snprintf(buf, sizeof buf, "%.3f \xC2\xB5s", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
  return buf;
}

std::string formatTick(int64_t t, int64_t step, TimeUnit unit) {
  if (t == 0) return "0";
  // The unit of the tick itself (or of twice the step, when larger): deep in a long
  // trace ticks read "874.9 ms", not "874900 µs"; 500 ns steps read 0.5 µs, 1.0 µs.
  const Unit u = unitFor(std::max(t < 0 ? -t : t, step * 2), unit);
  // Decimals so that step / scale is exact: step 500 ns in µs needs 1, 20 ns needs 2.
  int decimals = 0;
  for (double s = static_cast<double>(step) / u.scale; decimals < 9 && std::abs(s - std::round(s)) > 1e-9; s *= 10)
    ++decimals;
  return fixed(static_cast<double>(t) / u.scale, decimals, u.suffix);
}

std::string formatDuration(int64_t ns, TimeUnit unit) {
  const int64_t mag = ns < 0 ? -ns : ns;
  const Unit u = unitFor(mag, unit);
  if (u.scale == 1) return std::to_string(ns) + " ns";
  const double v = static_cast<double>(ns) / u.scale;
  const double a = std::abs(v);
  // Three significant digits at least: in a fixed unit 812 ns reads "0.000812 ms".
  int decimals = a < 10 ? 2 : a < 100 ? 1 : 0;
  for (double x = a; x > 0 && x < 1 && decimals < 9; x *= 10) ++decimals;
  return fixed(v, decimals, u.suffix);
}

}  // namespace opscope
