#include "io/args_text.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "io/number_text.h"

namespace opscope {

void scanArgsObject(JsonScanner& sc, std::vector<RawArg>& out) {
  if (sc.peek() != '{') {
    sc.skipValue();
    return;
  }
  ++sc.p;
  if (sc.peek() == '}') {
    ++sc.p;
    return;
  }
  for (;;) {
    if (sc.peek() != '"') sc.fail(sc.p, "expected '\"' to start a key in args");
    RawArg a;
    a.key = sc.string();
    sc.expect(':', "expected ':' after a key in args");
    const char c = sc.peek();
    switch (c) {
      case '"':
        a.type = 's';
        a.value = sc.string();
        break;
      case '{':
      case '[':
        a.type = 'r';
        a.value = sc.skipValue();
        break;
      case 't':
      case 'f':
      case 'n':
        a.type = sc.literal() == 'n' ? 'z' : c;
        break;
      default:
        a.type = 'n';
        a.value = sc.number();
    }
    out.push_back(a);
    const char d = sc.peek();
    ++sc.p;
    if (d == '}') return;
    if (d != ',') sc.fail(sc.p - 1, "expected ',' or '}' in args");
  }
}

bool plainInteger(std::string_view t, int64_t& out) {
  const char* p = t.data();
  const char* e = p + t.size();
  const bool negative = p < e && *p == '-';
  p += negative;
  const auto digits = static_cast<size_t>(e - p);
  if (digits == 0 || digits > 18) return false;
  uint64_t v = 0;  // 18 digits at most: no overflow
  for (; p < e; ++p) {
    const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (d > 9) return false;
    v = v * 10 + d;
  }
  out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

bool canonicalInteger(std::string_view t) {
  if (!t.empty() && t[0] == '-') {
    t.remove_prefix(1);
    if (t == "0") return false;
  }
  if (t.empty() || (t[0] == '0' && t.size() > 1)) return false;
  return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

NumberForm classifyNumber(std::string_view text, int64_t& iv, double& dv) {
  if (plainInteger(text, iv)) return NumberForm::Int;
  if (text.find_first_of(".eE") != std::string_view::npos && doubleText(text, dv) == NumberStatus::Ok)
    return NumberForm::Double;
  return NumberForm::Text;
}

NamedArg toNamedArg(const RawArg& a) {
  NamedArg n;
  n.key = std::string(a.key);
  switch (a.type) {
    case 's':
      n.type = ArgType::String;
      n.text = std::string(a.value);
      break;
    case 'r': {
      n.type = ArgType::Json;
      std::string scratch;
      n.text = std::string(compactJson(a.value, scratch));
      break;
    }
    case 't':
      n.type = ArgType::True;
      break;
    case 'f':
      n.type = ArgType::False;
      break;
    case 'z':
      n.type = ArgType::Null;
      break;
    default:
      switch (classifyNumber(a.value, n.i, n.d)) {
        case NumberForm::Int:
          n.type = ArgType::Int;
          break;
        case NumberForm::Double:
          n.type = ArgType::Double;
          break;
        case NumberForm::Text:
          n.type = ArgType::Json;
          n.text = std::string(a.value);
          break;
      }
  }
  return n;
}

std::string_view compactJson(std::string_view raw, std::string& scratch) {
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  // Up to the first whitespace outside strings nothing changes: most values have none.
  bool inString = false;
  size_t i = 0;
  for (; i < raw.size(); ++i) {
    const char c = raw[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (space(c)) {
      break;
    }
  }
  if (i >= raw.size()) return raw;
  // The rest is copied by pointer into a buffer that only ever grows (reused per value).
  if (scratch.size() < raw.size()) scratch.resize(raw.size());
  char* const begin = scratch.data();
  std::memcpy(begin, raw.data(), i);
  char* out = begin + i;
  for (; i < raw.size(); ++i) {
    const char c = raw[i];
    if (inString) {
      *out++ = c;
      if (c == '\\' && i + 1 < raw.size()) *out++ = raw[++i];
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
      *out++ = c;
    } else if (!space(c)) {
      *out++ = c;
    }
  }
  return {begin, static_cast<size_t>(out - begin)};
}

namespace {
// Shape keys first, then launch keys: a key's index is its byte in a kept text.
constexpr std::string_view kKeptKeys[] = {"Input Dims", "Input type", "Concrete Inputs", "grid", "block"};
constexpr int kShapeKeyCount = 3;

// key's index in kKeptKeys, else -1; by length first (a kernel has a dozen args and
// keeps two, an op eight and keeps three: most keys are rejected by their length).
int keptKeyIndex(std::string_view key) {
  switch (key.size()) {
    case 4:
      return key == "grid" ? 3 : -1;
    case 5:
      return key == "block" ? 4 : -1;
    case 10:
      return key == "Input Dims" ? 0 : key == "Input type" ? 1 : -1;
    case 15:
      return key == "Concrete Inputs" ? 2 : -1;
    default:
      return -1;
  }
}
}  // namespace

bool isShapeArgKey(std::string_view key) {
  const int k = keptKeyIndex(key);
  return k >= 0 && k < kShapeKeyCount;
}

bool isLaunchArgKey(std::string_view key) { return keptKeyIndex(key) >= kShapeKeyCount; }

void keptArgsText(const std::vector<RawArg>& args, KeptArgKeys keys, std::string& text) {
  const bool shapes = keys == KeptArgKeys::OpShapes;
  text.clear();
  for (const RawArg& a : args) {
    const int k = keptKeyIndex(a.key);
    if (k < 0 || (k < kShapeKeyCount) != shapes) continue;
    const uint32_t n = static_cast<uint32_t>(a.value.size());
    char head[2 + sizeof n] = {static_cast<char>(k), a.type};
    std::memcpy(head + 2, &n, sizeof n);
    text.append(head, sizeof head).append(a.value);
  }
}

std::vector<NamedArg> keptArgsOfText(std::string_view text) {
  std::vector<NamedArg> out;
  constexpr size_t kHead = 2 + sizeof(uint32_t);
  while (text.size() >= kHead) {
    const auto k = static_cast<unsigned char>(text[0]);
    uint32_t n = 0;
    std::memcpy(&n, text.data() + 2, sizeof n);
    if (k >= std::size(kKeptKeys) || n > text.size() - kHead) return {};
    out.push_back(toNamedArg(RawArg{kKeptKeys[k], text[1], text.substr(kHead, n)}));
    text.remove_prefix(kHead + n);
  }
  if (!text.empty()) return {};
  return out;
}

}  // namespace opscope
