#include "io/json_scanner.h"

#include "io/input_limits.h"

namespace opscope {

namespace {
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}
}  // namespace

std::string& JsonScanner::scratch() {
  if (scratchUsed_ == scratch_.size()) scratch_.emplace_back();
  std::string& s = scratch_[scratchUsed_++];
  s.clear();
  return s;
}

// Handles escapes and raw control bytes; s is the string's first byte, q the first
// byte the fast scan stopped at.
std::string_view JsonScanner::slowString(const char* s, const char* q) {
  // Raw control bytes without escapes stay a view into the window.
  const char* r = q;
  for (;;) {
    const auto c = static_cast<unsigned char>(*r);
    if (c == '"') {
      p = r + 1;
      return {s, static_cast<size_t>(r - s)};
    }
    if (c == '\\') break;
    if (c == 0 && r >= end) throw NeedMore{};
    if (c < 0x20) ++controlChars;
    ++r;
  }
  std::string& out = scratch();
  out.assign(s, r);
  for (;;) {
    const auto c = static_cast<unsigned char>(*r);
    if (c == '"') {
      p = r + 1;
      return out;
    }
    if (c == 0 && r >= end) throw NeedMore{};
    if (c != '\\') {
      if (c < 0x20) ++controlChars;
      out.push_back(static_cast<char>(c));
      ++r;
      continue;
    }
    if (r + 1 >= end) throw NeedMore{};
    const char e = r[1];
    r += 2;
    switch (e) {
      case '"':
        out.push_back('"');
        break;
      case '\\':
        out.push_back('\\');
        break;
      case '/':
        out.push_back('/');
        break;
      case 'b':
        out.push_back('\b');
        ++controlChars;
        break;
      case 'f':
        out.push_back('\f');
        ++controlChars;
        break;
      case 'n':
        out.push_back('\n');
        ++controlChars;
        ++escapedBreaks;
        break;
      case 'r':
        out.push_back('\r');
        ++controlChars;
        ++escapedBreaks;
        break;
      case 't':
        out.push_back('\t');
        ++controlChars;
        ++escapedBreaks;
        break;
      case 'u': {
        if (r + 4 > end) throw NeedMore{};
        uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
          const int h = hexValue(r[k]);
          if (h < 0) fail(r + k, "expected four hex digits after \\u");
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        r += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          // A high surrogate needs its low half; a lone one becomes U+FFFD.
          if (r + 6 > end) throw NeedMore{};
          uint32_t lo = 0;
          bool ok = r[0] == '\\' && r[1] == 'u';
          for (int k = 0; ok && k < 4; ++k) {
            const int h = hexValue(r[2 + k]);
            ok = h >= 0;
            lo = lo * 16 + static_cast<uint32_t>(h < 0 ? 0 : h);
          }
          if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            r += 6;
          } else {
            cp = 0xFFFD;
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          cp = 0xFFFD;
        }
        if (cp < 0x20) ++controlChars;
        appendUtf8(out, cp);
        break;
      }
      default:
        fail(r - 1, "expected a valid escape after '\\'");
    }
  }
}

std::string_view JsonScanner::skipValue() {
  skipWs();
  const char* s = p;
  const char c = *p;
  if (c == '"') {
    string();
  } else if (c == '{' || c == '[') {
    // Bracket matching only: the content of a skipped value is not validated further.
    char stack[kMaxJsonDepth];
    int depth = 0;
    for (;;) {
      const char b = *p;
      if (b == '"') {
        string();
        continue;
      }
      if (b == '{' || b == '[') {
        if (depth == static_cast<int>(sizeof stack))
          fail(p, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        stack[depth++] = b == '{' ? '}' : ']';
      } else if (b == '}' || b == ']') {
        if (depth == 0 || stack[depth - 1] != b) fail(p, std::string("unexpected '") + b + "'");
        --depth;
        if (depth == 0) {
          ++p;
          break;
        }
      } else if (b == 0) {
        if (p >= end) throw NeedMore{};  // else a NUL inside the value: passed over
      } else {
        // Numbers, commas and spaces between the brackets: on to the next byte that
        // matters (a shape list is mostly digits).
        p = scanStructural(p + 1);
        continue;
      }
      ++p;
    }
  } else if (c == 't' || c == 'f' || c == 'n') {
    literal();
  } else {
    number();
  }
  return {s, static_cast<size_t>(p - s)};
}

}  // namespace opscope
