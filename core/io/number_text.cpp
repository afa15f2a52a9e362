#include "io/number_text.h"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>

namespace opscope {

namespace {

__extension__ typedef unsigned __int128 u128;

// A decimal number as mantissa * 10^exp10 with its sign; mantissa holds at most 19
// significant digits (further digits only matter for rounding and are folded in).
struct Decimal {
  bool negative = false;
  u128 mantissa = 0;
  int digits = 0;  // significant digits kept in mantissa
  int exp10 = 0;
  bool droppedNonZero = false;  // digits beyond the kept ones were not all zero
  int firstDropped = -1;        // the first dropped digit, for rounding
};

bool parseDecimal(std::string_view t, Decimal& d) {
  size_t i = 0;
  const size_t n = t.size();
  if (i < n && (t[i] == '-' || t[i] == '+')) d.negative = t[i++] == '-';
  bool any = false;
  auto digit = [&](int v, bool fractional) {
    any = true;
    if (d.digits == 0 && v == 0) {  // leading zeros are not significant
      if (fractional) --d.exp10;
      return;
    }
    if (d.digits < 30) {
      d.mantissa = d.mantissa * 10 + static_cast<unsigned>(v);
      ++d.digits;
      if (fractional) --d.exp10;
    } else {
      if (d.firstDropped < 0) d.firstDropped = v;
      else if (v != 0) d.droppedNonZero = true;
      if (!fractional) ++d.exp10;
    }
  };
  while (i < n && t[i] >= '0' && t[i] <= '9') digit(t[i++] - '0', false);
  if (i < n && t[i] == '.') {
    ++i;
    while (i < n && t[i] >= '0' && t[i] <= '9') digit(t[i++] - '0', true);
  }
  if (!any) return false;
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < n && (t[i] == '-' || t[i] == '+')) eneg = t[i++] == '-';
    if (i >= n || t[i] < '0' || t[i] > '9') return false;
    int e = 0;
    while (i < n && t[i] >= '0' && t[i] <= '9') {
      if (e < 100000) e = e * 10 + (t[i] - '0');
      ++i;
    }
    d.exp10 += eneg ? -e : e;
  }
  return i == n;
}

constexpr u128 kInt64Limit = static_cast<u128>(INT64_MAX);

// value * 10^shift rounded half away from zero (round=true) or required integral.
NumberStatus toInt64(const Decimal& d, int shift, bool round, int64_t& out) {
  u128 m = d.mantissa;
  int e = d.exp10 + shift;
  if (m == 0) {
    out = 0;
    return NumberStatus::Ok;
  }
  if (e >= 0) {
    if (e > 38) return NumberStatus::OutOfRange;
    for (int k = 0; k < e; ++k) {
      m *= 10;
      if (m > kInt64Limit + 1) return NumberStatus::OutOfRange;
    }
    if (!round && (d.firstDropped > 0 || d.droppedNonZero)) return NumberStatus::Invalid;
  } else {
    const int drop = -e;
    if (drop > 38) {
      if (!round) return NumberStatus::Invalid;  // m != 0 here, so not integral
      m = 0;
    } else {
      u128 p = 1;
      for (int k = 0; k < drop; ++k) p *= 10;
      const u128 rest = m % p;
      const int firstDropped = static_cast<int>(rest / (p / 10));
      const bool nonZeroTail = rest != 0 || d.firstDropped > 0 || d.droppedNonZero;
      if (!round && nonZeroTail) return NumberStatus::Invalid;
      m /= p;
      if (round && firstDropped >= 5) ++m;
    }
  }
  if (m > kInt64Limit + (d.negative ? 1 : 0)) return NumberStatus::OutOfRange;
  out = d.negative ? static_cast<int64_t>(0 - static_cast<uint64_t>(m)) : static_cast<int64_t>(m);
  return NumberStatus::Ok;
}

// True when q[0..8) are eight ASCII digits; their value in `out`. SWAR (one 64-bit
// word, little-endian; D. Lemire's "fast_float" formulation): pairs, then fours, then
// the eight combined with two multiplications.
bool eightDigits(const char* q, uint64_t& out) {
  static_assert(std::endian::native == std::endian::little, "the digit trick reads q[0] as the low byte");
  uint64_t x = 0;
  std::memcpy(&x, q, 8);
  if (((x & 0xF0F0F0F0F0F0F0F0ull) | (((x + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) !=
      0x3333333333333333ull)
    return false;
  x -= 0x3030303030303030ull;
  x = x * 10 + (x >> 8);  // each even byte: its two digits' value
  constexpr uint64_t kMask = 0x000000FF000000FFull;
  constexpr uint64_t kMul1 = 100 + (1000000ull << 32), kMul2 = 1 + (10000ull << 32);
  out = (((x & kMask) * kMul1) + (((x >> 16) & kMask) * kMul2)) >> 32;
  return true;
}

}  // namespace

NumberStatus microsTextToNs(std::string_view text, int64_t& ns) {
  // Fast path: "digits[.ddd]" as Kineto writes it, up to 16 integer digits: at most
  // 19 decimal digits accumulate, which a uint64 holds without overflow.
  const char* p = text.data();
  const char* e = p + text.size();
  const bool negative = p < e && *p == '-';
  if (negative) ++p;
  uint64_t v = 0;
  const char* q = p;
  // Eight digits a step while eight are there (a timestamp has 16 before its point).
  for (uint64_t eight = 0; e - q >= 8 && eightDigits(q, eight); q += 8) v = v * 100000000 + eight;
  while (q < e && static_cast<unsigned>(*q - '0') < 10) v = v * 10 + static_cast<unsigned>(*q++ - '0');
  const long intDigits = q - p;
  if (intDigits > 0 && intDigits <= 16) {
    int frac = 0;
    if (q < e && *q == '.') {
      ++q;
      while (q < e && frac < 3 && static_cast<unsigned>(*q - '0') < 10) {
        v = v * 10 + static_cast<unsigned>(*q++ - '0');
        ++frac;
      }
    }
    if (q == e) {
      for (; frac < 3; ++frac) v *= 10;
      if (v <= static_cast<uint64_t>(INT64_MAX)) {
        ns = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
        return NumberStatus::Ok;
      }
    }
  }
  Decimal d;
  if (!parseDecimal(text, d)) return NumberStatus::Invalid;
  return toInt64(d, 3, true, ns);
}

NumberStatus integerText(std::string_view text, int64_t& value) {
  const char* b = text.data();
  const char* e = b + text.size();
  auto r = std::from_chars(b, e, value);
  if (r.ec == std::errc() && r.ptr == e) return NumberStatus::Ok;
  if (r.ec == std::errc::result_out_of_range) {
    // Still must be all digits to be "out of range" rather than invalid.
    Decimal d;
    if (!parseDecimal(text, d)) return NumberStatus::Invalid;
    return NumberStatus::OutOfRange;
  }
  Decimal d;
  if (!parseDecimal(text, d)) return NumberStatus::Invalid;
  return toInt64(d, 0, false, value);
}

NumberStatus doubleText(std::string_view text, double& value) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b < e && *b == '+') ++b;
  auto r = std::from_chars(b, e, value);
  if (r.ptr != e) return NumberStatus::Invalid;
  if (r.ec == std::errc::result_out_of_range) return NumberStatus::OutOfRange;
  return r.ec == std::errc() ? NumberStatus::Ok : NumberStatus::Invalid;
}

}  // namespace opscope
