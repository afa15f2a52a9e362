#include "io/json_units.h"

#include <cstring>

#include "io/input_limits.h"

namespace opscope {

namespace {
constexpr size_t kFirstWindow = size_t{64} << 10;  // grows by doubling when one unit fills it
bool isWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
}  // namespace

JsonUnitReader::JsonUnitReader(ByteSource& src) : src_(src) {
  buf_.assign(kFirstWindow + kPadding, '\0');
  open_.reserve(8);
}

std::string JsonUnitReader::where(uint64_t offset) const {
  return "byte " + std::to_string(offset) + (src_.isGzip() ? " of the decompressed stream" : "");
}

void JsonUnitReader::fail(const std::string& what) const { throw JsonUnitError{what}; }

bool JsonUnitReader::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
    base_ += pos_;
    len_ -= pos_;
    pos_ = 0;
  }
  const size_t capacity = buf_.size() - kPadding;
  if (len_ == capacity) {
    // One unit fills the window: grow it, up to the ceiling.
    if (capacity >= kMaxJsonValueBytes)
      fail("a JSON value at " + where(base_) + " is larger than " + std::to_string(kMaxJsonValueBytes >> 20) +
           " MiB, the ceiling for one value");
    buf_.resize(std::min(capacity * 2, kMaxJsonValueBytes) + kPadding);
  }
  const size_t n = src_.read(buf_.data() + len_, buf_.size() - kPadding - len_);
  if (n == 0) {
    eof_ = true;
    if (!src_.error().empty()) fail(src_.error());
    std::memset(buf_.data() + len_, 0, kPadding);
    return false;
  }
  len_ += n;
  std::memset(buf_.data() + len_, 0, kPadding);
  return true;
}

template <class Op>
auto JsonUnitReader::withWindow(Op op, const char* what) {
  for (;;) {
    sc_.reset(buf_.data() + pos_, buf_.data() + len_);
    sc_.resetScratch();
    try {
      auto result = op();
      pos_ = static_cast<size_t>(sc_.p - buf_.data());
      return result;
    } catch (const NeedMore&) {
      if (!fill())
        fail("input ends at " + where(base_ + len_) + " inside " + what +
             (src_.truncated() ? " (gzip stream cut short)" : ""));
    } catch (const SyntaxError& e) {
      fail("malformed JSON at " + where(base_ + static_cast<uint64_t>(e.at - buf_.data())) + ": " + e.expected);
    }
  }
}

void JsonUnitReader::dropWhitespace() {
  for (;;) {
    while (pos_ < len_ && isWs(buf_[pos_])) ++pos_;
    if (pos_ < len_ || !fill()) return;
  }
}

char JsonUnitReader::peek() {
  dropWhitespace();
  return pos_ < len_ ? buf_[pos_] : '\0';
}

void JsonUnitReader::beginObject() {
  if (peek() != '{') fail("expected '{' at " + where(base_ + pos_));
  ++pos_;
  open_.push_back({false, true});
}

void JsonUnitReader::beginArray() {
  if (peek() != '[') fail("expected '[' at " + where(base_ + pos_));
  ++pos_;
  open_.push_back({true, true});
}

bool JsonUnitReader::another(char close, const char* what) {
  Open& o = open_.back();
  char c = peek();
  if (c == close) {
    ++pos_;
    open_.pop_back();
    return false;
  }
  if (!o.first) {
    if (c != ',')
      fail(c == '\0' ? "input ends at " + where(base_ + len_) + " inside " + what
                     : "malformed JSON at " + where(base_ + pos_) + ": expected ',' or '" + close + "' in " + what);
    ++pos_;
    c = peek();
    if (c == close) {  // a trailing comma, as hand-edited files have
      ++pos_;
      open_.pop_back();
      return false;
    }
  }
  if (c == '\0') fail("input ends at " + where(base_ + len_) + " inside " + what);
  o.first = false;
  return true;
}

bool JsonUnitReader::nextKey(std::string& key) {
  if (!another('}', "an object")) return false;
  if (buf_[pos_] != '"') fail("malformed JSON at " + where(base_ + pos_) + ": expected '\"' to start a key");
  key = withWindow(
      [&] {
        std::string k(sc_.string());
        sc_.expect(':', "expected ':' after an object key");
        return k;
      },
      "an object key");
  return true;
}

bool JsonUnitReader::nextElement() { return another(']', "an array"); }

std::string_view JsonUnitReader::value() {
  dropWhitespace();
  lastOffset_ = base_ + pos_;
  if (pos_ >= len_) fail("input ends at " + where(base_ + len_) + " where a value belongs");
  return withWindow([&] { return sc_.skipValue(); }, "a value");
}

void JsonUnitReader::skip() {
  dropWhitespace();
  lastOffset_ = base_ + pos_;
  if (pos_ >= len_) fail("input ends at " + where(base_ + len_) + " where a value belongs");
  const char first = buf_[pos_];
  if (first != '{' && first != '[' && first != '"') {
    value();  // a number or a literal: short
    return;
  }
  // Bracket matching over the stream, holding nothing but the open brackets.
  std::vector<char> closers;
  bool inString = false, escaped = false;
  for (;;) {
    while (pos_ < len_) {
      const char b = buf_[pos_++];
      if (inString) {
        if (escaped) escaped = false;
        else if (b == '\\') escaped = true;
        else if (b == '"') {
          inString = false;
          if (closers.empty()) return;
        }
        continue;
      }
      if (b == '"') {
        inString = true;
      } else if (b == '{' || b == '[') {
        if (closers.size() == static_cast<size_t>(kMaxJsonDepth))
          fail("malformed JSON at " + where(base_ + pos_ - 1) + ": nesting deeper than " +
               std::to_string(kMaxJsonDepth) + " levels");
        closers.push_back(b == '{' ? '}' : ']');
      } else if (b == '}' || b == ']') {
        if (closers.empty() || closers.back() != b)
          fail("malformed JSON at " + where(base_ + pos_ - 1) + ": unexpected '" + b + "'");
        closers.pop_back();
        if (closers.empty()) return;
      }
    }
    if (!fill())
      fail("input ends at " + where(base_ + len_) + " inside the value that starts at " + where(lastOffset_) +
           (src_.truncated() ? " (gzip stream cut short)" : ""));
  }
}

uint64_t jsonErrorOffset(std::string_view raw, const std::exception& e) {
  const std::string_view what = e.what();
  const size_t open = what.find("parsing '");
  if (open == std::string_view::npos) return 0;
  const size_t from = open + 9, close = what.find('\'', from);
  if (close == std::string_view::npos || close == from) return 0;
  const size_t at = raw.find(what.substr(from, close - from));
  return at == std::string_view::npos ? 0 : at;
}

std::string jsonErrorText(const std::exception& e) {
  std::string s = e.what();
  if (s.starts_with("[json.exception.")) {
    const size_t close = s.find("] ");
    if (close != std::string::npos) s.erase(0, close + 2);
  }
  // nlohmann's parse errors read "parse error at line 1, column 5: syntax error while
  // parsing value - invalid literal; last read: 'x'": keep what follows the position.
  if (s.starts_with("parse error")) {
    const size_t colon = s.find(": ");
    if (colon != std::string::npos) s.erase(0, colon + 2);
  }
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace opscope
