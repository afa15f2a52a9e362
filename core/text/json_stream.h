#pragma once
// A JSON object written member by member, with the bytes jsonText(object, 2) would give
// for the whole, so that an array of 10^6 entries (a table's ranks, an ET+'s nodes) is
// made an entry at a time, and passed on about 64 KiB of entries at a time, instead of
// being built as one value first.
//
// A value at nesting depth d is nlohmann's indented text with every line after its
// first indented 2 × d more: a JSON string holds no raw newline (it is escaped), so the
// newlines met are the layout's.
#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "text/json_text.h"
#include "text/text_sink.h"

namespace opscope {

class JsonObjectWriter {
 public:
  using Json = nlohmann::ordered_json;

  // Writes "{"; depth: this object's nesting (0 for the document).
  JsonObjectWriter(TextSink write, int depth = 0) : write_(std::move(write)), depth_(depth) { write_("{"); }

  void value(const std::string& key, const Json& v) {
    startMember(key);
    write_(nested(v, depth_ + 1));
  }

  // An array member of count elements, element(i) each, passed on as arrayText does.
  void array(const std::string& key, size_t count, const std::function<Json(size_t)>& element) {
    arrayText(key, count, [&](size_t i, std::string& out) { out += nested(element(i), depth_ + 2); });
  }

  // The same for elements written as text by the caller, for arrays of millions where
  // building each element as a Json costs more than the rest: element(i, out) appends
  // element i as jsonText(value, 2) would write it with every line after its first
  // indented by elementIndent() more (tests check the whole against dump(2)).
  using ElementWriter = std::function<void(size_t, std::string&)>;
  void arrayText(const std::string& key, size_t count, const ElementWriter& element) {
    startMember(key);
    if (count == 0) {
      write_("[]");
      return;
    }
    std::string piece = "[";
    piece.reserve(kBatch + 4096);
    writeElements(0, count, element, piece, true);
    closeArray(piece);
  }

  // arrayText's bytes, the elements written on two threads when there are at least
  // `from`: the first half on this thread, passed on as arrayText does, the second into
  // a text of its own on another thread, passed on after it. makeElement() is called
  // once per thread, on this one, so that each writer may keep caches of its own. An
  // exception on either thread reaches the caller once both are done.
  void arrayTextOnTwoThreads(const std::string& key, size_t count, const std::function<ElementWriter()>& makeElement,
                             size_t from = 8192) {
    if (count == 0 || count < from || std::thread::hardware_concurrency() < 2) {
      arrayText(key, count, makeElement());
      return;
    }
    startMember(key);
    const size_t half = count / 2;
    ElementWriter first = makeElement(), second = makeElement();
    std::string tail;
    std::exception_ptr failed;
    std::thread other([&] {
      try {
        writeElements(half, count, second, tail, false);
      } catch (...) {
        failed = std::current_exception();
      }
    });
    std::string piece = "[";
    try {
      piece.reserve(kBatch + 4096);
      writeElements(0, half, first, piece, true);
    } catch (...) {
      other.join();
      throw;
    }
    other.join();
    if (failed) std::rethrow_exception(failed);
    write_(piece);
    piece.clear();
    write_(tail);
    tail = {};
    closeArray(piece);
  }

  // The spaces an arrayText element's lines after its first start with, beyond its own
  // indentation of 2 a level.
  size_t elementIndent() const { return static_cast<size_t>(2 * (depth_ + 2)); }

  // An object member written by a writer of its own; close() it before the next member.
  JsonObjectWriter object(const std::string& key) {
    startMember(key);
    return JsonObjectWriter(write_, depth_ + 1);
  }

  // Writes "}" (after a newline and this object's indent when it has members).
  void close() { write_(members_ ? "\n" + spaces(depth_) + "}" : "}"); }

 private:
  // Elements are passed on about 64 KiB at a time: a sink call (and an fwrite) an
  // element cost as much as formatting a small one.
  static constexpr size_t kBatch = 64 * 1024;

  static std::string spaces(int depth) { return std::string(static_cast<size_t>(2 * depth), ' '); }

  // Elements [begin, end) appended to piece, each after its separator (the first of the
  // array after "\n"); passed on and cleared every kBatch bytes when pass is set, else
  // all kept in piece.
  void writeElements(size_t begin, size_t end, const ElementWriter& element, std::string& piece, bool pass) {
    const std::string pad = spaces(depth_ + 2);
    for (size_t i = begin; i < end; ++i) {
      piece += i ? ",\n" : "\n";
      piece += pad;
      element(i, piece);
      if (pass && piece.size() >= kBatch) {
        write_(piece);
        piece.clear();
      }
    }
  }
  // Passes piece on with the array's closing bracket after it.
  void closeArray(std::string& piece) {
    piece += '\n';
    piece += spaces(depth_ + 1);
    piece += ']';
    write_(piece);
  }

  void startMember(const std::string& key) {
    write_((members_++ ? ",\n" : "\n") + spaces(depth_ + 1) + jsonText(Json(key)) + ": ");
  }

  static std::string nested(const Json& v, int depth) {
    const std::string text = jsonText(v, 2);
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
      out.push_back(c);
      if (c == '\n') out.append(static_cast<size_t>(2 * depth), ' ');
    }
    return out;
  }

  TextSink write_;  // held by value: a lambda passed in place outlives the call
  int depth_;
  size_t members_ = 0;
};

}  // namespace opscope
