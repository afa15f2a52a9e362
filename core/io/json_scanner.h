#pragma once
// Pull-style JSON scanning over a window of a larger stream.
//
// The window [begin, end) is followed by at least kPadding readable bytes, the first
// of them NUL: loops stop on NUL and only then compare against end, so the hot loops
// carry no bounds checks. Reaching end in the middle of a token throws NeedMore; the
// caller refills the window and re-parses the whole unit (an event) from its start,
// which is why nothing here has side effects beyond the scratch strings.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace opscope {

constexpr size_t kPadding = 64;

struct NeedMore {};
struct SyntaxError {
  const char* at;
  std::string expected;  // "expected ':' after an object key"
};

class JsonScanner {
 public:
  const char* p = nullptr;
  const char* end = nullptr;
  uint64_t controlChars = 0;  // control bytes in strings, raw (tolerated) or escaped
  // Of those, the escaped line breaks and tabs (\n, \r, \t): how JSON writes multi-line
  // text (a kernel's source, a stack), no defect of the file outside a name.
  uint64_t escapedBreaks = 0;

  void reset(const char* pos, const char* windowEnd) {
    p = pos;
    end = windowEnd;
  }
  void resetScratch() { scratchUsed_ = 0; }

  [[noreturn]] void fail(const char* at, std::string expected) const {
    if (at >= end) throw NeedMore{};
    throw SyntaxError{at, std::move(expected)};
  }

  void skipWs() {
    // A local cursor: p is stored once, not at every byte (the compiler cannot keep a
    // member in a register across the loop).
    const char* q = p;
    for (;;) {
      const auto c = static_cast<unsigned char>(*q);
      // The usual byte: above the space, neither whitespace nor the NUL at end (so q is
      // before end: the scans stop on that NUL and never pass it).
      if (c > ' ') break;
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        ++q;
        continue;
      }
      p = q;
      if (q >= end) throw NeedMore{};
      return;
    }
    p = q;
  }
  // Skips whitespace and returns the next byte without consuming it.
  char peek() {
    skipWs();
    return *p;
  }
  void expect(char c, const char* what) {
    skipWs();
    if (*p != c) fail(p, what);
    ++p;
  }

  // p at '"'. The view points into the window unless the string had escapes, in which
  // case it points into scratch storage valid until resetScratch().
  std::string_view string() {
    const char* s = ++p;
    const char* q = scanString(s);
    if (*q == '"') {
      p = q + 1;
      return {s, static_cast<size_t>(q - s)};
    }
    return slowString(s, q);
  }

  // p at the first byte of a number; returns its text (validated later by the converter).
  std::string_view number() {
    const char* s = p;
    const char* q = scanNumber(p);
    if (q >= end) throw NeedMore{};
    if (q == s) fail(s, "expected a value");
    p = q;
    return {s, static_cast<size_t>(q - s)};
  }

  // true / false / null; returns the literal's first letter.
  char literal() {
    const char* s = p;
    const char* word = *s == 't' ? "true" : *s == 'f' ? "false" : *s == 'n' ? "null" : nullptr;
    if (!word) fail(s, "expected a value");
    const size_t n = std::char_traits<char>::length(word);
    for (size_t i = 0; i < n; ++i) {
      if (s + i >= end) throw NeedMore{};
      if (s[i] != word[i]) fail(s + i, std::string("expected '") + word + "'");
    }
    p = s + n;
    return *s;
  }

  // Skips any value and returns its raw text (arrays and objects included).
  std::string_view skipValue();

 private:
  static bool isNumberByte(unsigned char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  }
  // First byte at or after s that is not one of a number's (digits, - + . e E): the NUL
  // sentinel is not, so the scan stops at end. A timestamp's 20 bytes take two steps.
  static const char* scanNumber(const char* s) {
#ifdef __SSE2__
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    const __m128i minus = _mm_set1_epi8('-'), plus = _mm_set1_epi8('+'), point = _mm_set1_epi8('.');
    const __m128i lower = _mm_set1_epi8(0x20), e = _mm_set1_epi8('e');
    for (;;) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      const __m128i d = _mm_sub_epi8(v, zero);  // a digit: 0..9 unsigned
      __m128i m = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
      m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, minus), _mm_cmpeq_epi8(v, plus)));
      m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, point), _mm_cmpeq_epi8(_mm_or_si128(v, lower), e)));
      const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(m)) & 0xFFFFu;
      if (other) return s + __builtin_ctz(other);
      s += 16;
    }
#else
    while (isNumberByte(static_cast<unsigned char>(*s))) ++s;
    return s;
#endif
  }
  // First byte at or after s that is '"', '\\' or a control byte (NUL sentinel included).
  static const char* scanString(const char* s) {
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i ctl = _mm_set1_epi8(0x1F);
    for (;;) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
      m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));
      const int mask = _mm_movemask_epi8(m);
      if (mask) return s + __builtin_ctz(static_cast<unsigned>(mask));
      s += 16;
    }
#else
    for (;; ++s) {
      const auto c = static_cast<unsigned char>(*s);
      if (c == '"' || c == '\\' || c < 0x20) return s;
    }
#endif
  }
  // First byte at or after s that is '"', a bracket, a brace or NUL (the sentinel):
  // what skipValue's bracket matching looks at inside a container.
  static const char* scanStructural(const char* s) {
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i open1 = _mm_set1_epi8('['), close1 = _mm_set1_epi8(']');
    const __m128i open2 = _mm_set1_epi8('{'), close2 = _mm_set1_epi8('}');
    const __m128i zero = _mm_setzero_si128();
    for (;;) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
      __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, zero));
      m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, open1), _mm_cmpeq_epi8(v, close1)));
      m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, open2), _mm_cmpeq_epi8(v, close2)));
      const int mask = _mm_movemask_epi8(m);
      if (mask) return s + __builtin_ctz(static_cast<unsigned>(mask));
      s += 16;
    }
#else
    for (;; ++s) {
      const char c = *s;
      if (c == '"' || c == '[' || c == ']' || c == '{' || c == '}' || c == 0) return s;
    }
#endif
  }
  std::string_view slowString(const char* s, const char* q);
  std::string& scratch();

  std::deque<std::string> scratch_;
  size_t scratchUsed_ = 0;
};

}  // namespace opscope
