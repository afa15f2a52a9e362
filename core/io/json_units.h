#pragma once
// Pulls a JSON document from a ByteSource one unit at a time, for the formats whose
// records are parsed into a DOM one by one (execution traces, dv/dt prof): the
// caller walks into the containers it knows (beginObject / nextKey, beginArray /
// nextElement) and takes every other value whole (value()) or skips it (skip()).
//
// Memory is bounded whatever the input: the window holds the unit being read and
// nothing before it, whitespace between units is dropped as it is read, a value taken
// whole may not exceed kMaxJsonValueBytes nor nest deeper than kMaxJsonDepth, and
// skip() streams past a value of any size without holding it.
//
// Errors (malformed JSON, a ceiling, input that ends inside a value, a read error) are
// thrown as JsonUnitError with one line naming the byte offset in the (decompressed)
// stream.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/byte_source.h"
#include "io/json_scanner.h"

namespace opscope {

struct JsonUnitError {
  std::string message;
};

class JsonUnitReader {
 public:
  explicit JsonUnitReader(ByteSource& src);

  // The next byte that is not whitespace, not consumed; 0 at the end of the input.
  char peek();
  // Consume '{' or '[' (an error when the next value is something else).
  void beginObject();
  void beginArray();
  // Inside an object: reads the next key and its ':'; false when the object closed.
  bool nextKey(std::string& key);
  // Inside an array: true when an element follows (not consumed); false when it closed.
  bool nextElement();
  // The next value as raw JSON text, valid until the next call.
  std::string_view value();
  // Past the next value, whatever its size.
  void skip();
  // Stream offset of the first byte of the last value taken or skipped.
  uint64_t lastOffset() const { return lastOffset_; }
  // "byte N" (plus " of the decompressed stream" for gzip input).
  std::string where(uint64_t offset) const;

 private:
  // Runs op over the window from pos_ until it stops asking for more bytes.
  template <class Op>
  auto withWindow(Op op, const char* what);
  bool fill();  // drops bytes before pos_, reads more; false at the end of the input
  void dropWhitespace();
  // Before the next key or element of the innermost open container: false (and the
  // container closed) at its closing bracket.
  bool another(char close, const char* what);
  [[noreturn]] void fail(const std::string& what) const;

  ByteSource& src_;
  std::string buf_;    // window bytes, followed by kPadding NULs
  size_t pos_ = 0;     // first unread byte in buf_
  size_t len_ = 0;     // valid bytes in buf_
  uint64_t base_ = 0;  // stream offset of buf_[0]
  bool eof_ = false;
  uint64_t lastOffset_ = 0;
  JsonScanner sc_;
  struct Open {
    bool array;
    bool first;
  };
  std::vector<Open> open_;
};

// raw (a value the reader returned, starting at stream offset `offset`) as a DOM; any
// nlohmann error (syntax, a number beyond double, invalid UTF-8) becomes a
// JsonUnitError naming the byte.
template <class Json>
Json parseJsonUnit(std::string_view raw, uint64_t offset, const JsonUnitReader& reader);
std::string jsonErrorText(const std::exception& e);  // nlohmann's message without its "[json.exception...]" tag
// Where in raw the text an error quotes ("number overflow parsing '1e400'") is, else 0.
uint64_t jsonErrorOffset(std::string_view raw, const std::exception& e);

template <class Json>
Json parseJsonUnit(std::string_view raw, uint64_t offset, const JsonUnitReader& reader) {
  try {
    return Json::parse(raw);
  } catch (const nlohmann::json::parse_error& e) {
    throw JsonUnitError{"malformed JSON at " + reader.where(offset + (e.byte > 0 ? e.byte - 1 : 0)) + ": " +
                        jsonErrorText(e)};
  } catch (const nlohmann::json::exception& e) {
    throw JsonUnitError{"unusable value at " + reader.where(offset + jsonErrorOffset(raw, e)) + ": " +
                        jsonErrorText(e)};
  }
}

}  // namespace opscope
