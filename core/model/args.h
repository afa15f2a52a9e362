#pragma once
// Compact storage of event args, decoded only when something asks for them.
//
// One record per slice: varint(count), then per arg varint(key id), a type byte and
// the value: Int as zig-zag varint, Double as 8 raw bytes, String/Json as a varint
// string id. Json holds the raw text of an array or object value (Kineto's
// "Input Dims" lists repeat endlessly, so interning them is also compression).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/pod_column.h"
#include "model/string_pool.h"

namespace opscope {

enum class ArgType : uint8_t { Null = 0, False = 1, True = 2, Int = 3, Double = 4, String = 5, Json = 6 };

struct ArgValue {
  ArgType type = ArgType::Null;
  int64_t i = 0;
  double d = 0;
  StringId s = 0;
};

struct Arg {
  StringId key = 0;
  ArgValue value;
};

// The args of the slice being built, as the importer hands them to the builder: an
// encoded record, or (lazy mode, plain files) only where the args object starts in the
// file, to be read again when someone asks (see LazyArgs).
class ArgsWriter {
 public:
  static constexpr uint64_t kNoFileOffset = ~0ull;
  void clear() {
    used_ = 0;
    count_ = 0;
    fileOffset_ = kNoFileOffset;
  }
  void setFileOffset(uint64_t offset) { fileOffset_ = offset; }
  uint64_t fileOffset() const { return fileOffset_; }
  void addInt(StringId key, int64_t v);
  void addDouble(StringId key, double v);
  void addString(StringId key, StringId v);
  void addJson(StringId key, StringId rawText);
  void addNull(StringId key);
  void addBool(StringId key, bool v);
  // Appends the record to blob and returns its offset.
  uint64_t appendTo(PodColumn<uint8_t>& blob) const;
  uint32_t count() const { return count_; }
  // Upper bound of the bytes appendTo adds.
  size_t byteSize() const { return used_ + 10; }

 private:
  uint8_t* header(StringId key, ArgType t);
  void finish(uint8_t* end);
  // The record so far is bytes_[0, used_); bytes_ only grows (zero-filled then, never
  // per arg: a resize per arg was a tenth of an eager load's encoding).
  std::vector<uint8_t> bytes_;
  size_t used_ = 0;
  uint32_t count_ = 0;
  uint64_t fileOffset_ = kNoFileOffset;
};

std::vector<Arg> decodeArgs(std::span<const uint8_t> blob, uint64_t offset);

// Appends the records of `blob` at `offsets` (one a row; `none` marks a row without
// args and stays so) to `to`, every string id in them (keys, string and JSON values)
// translated by `ids`, and each record's offset in `to` to `toOffsets`: a part's args
// merged into the model of a parallel load (TraceBuilder::absorb), the bytes a single
// pass would have written. A record that would take `to` to `none` bytes or more is
// dropped as the single pass drops it (its row gets `none`); returns how many were.
size_t appendArgsTranslated(std::span<const uint8_t> blob, std::span<const uint32_t> offsets,
                            std::span<const StringId> ids, uint32_t none, PodColumn<uint8_t>& to,
                            PodColumn<uint32_t>& toOffsets);

// The value as JSON text (strings quoted and escaped; Json raw).
std::string argValueToJson(const ArgValue& v, const StringPool& pool);
// The value for people: strings unquoted, numbers as written.
std::string argValueToText(const ArgValue& v, const StringPool& pool);

// JSON string literal for s, with control characters escaped.
std::string jsonQuote(std::string_view s);

// One arg with its strings resolved: what Trace::args returns, whether the args were
// encoded at load or read back from the file.
struct NamedArg {
  std::string key;
  ArgType type = ArgType::Null;
  int64_t i = 0;     // Int
  double d = 0;      // Double
  std::string text;  // String: the string; Json: the raw JSON text
  friend bool operator==(const NamedArg&, const NamedArg&) = default;
};

NamedArg toNamedArg(const Arg& a, const StringPool& pool);
std::string namedArgJson(const NamedArg& a);
std::string namedArgText(const NamedArg& a);  // strings unquoted, numbers as written
// The arg named key as an integer: an Int, or a Double that fits int64 (truncated);
// nullopt when absent, of another type or out of range (a damaged file's 1e300).
std::optional<int64_t> intArg(const std::vector<NamedArg>& args, std::string_view key);

// Reads the args object that starts at a byte offset of the trace file (lazy args).
// Implemented in io/; the model only keeps the handle.
class LazyArgs {
 public:
  virtual ~LazyArgs() = default;
  // On failure (file changed or gone since loading, unreadable) returns nothing and
  // sets error to one line.
  virtual std::vector<NamedArg> read(uint64_t offset, std::string* error) const = 0;
  // The args at every offset, in ascending offset order whatever the order given:
  // sink(i, args) for offsets[i]. A source that can (a file) reads them in one pass of
  // large reads instead of one read per object: a prediction reads the args of every
  // op and kernel of a 1 GB trace, millions of objects. On the first failure sets error
  // and returns false; the objects before it were handed over.
  // keep, when given, names the args wanted of offsets[i]: keep(i, key) false leaves
  // that arg out (a model that reads three args of twelve converts only those).
  using Sink = std::function<void(size_t, std::vector<NamedArg>&&)>;
  using KeyFilter = std::function<bool(size_t, std::string_view)>;
  virtual bool readMany(std::span<const uint64_t> offsets, const Sink& sink, std::string* error,
                        const KeyFilter* keep = nullptr) const;
};

}  // namespace opscope
