#pragma once
// The protobuf wire format, by hand: enough to read (and, for test fixtures, write) a
// few known messages without generated code. Every read is bounds-checked; a reader
// that runs past its buffer reports failure instead of reading on.
#include <cstdint>
#include <string>
#include <string_view>

namespace opscope::pb {

enum WireType : uint32_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

class Reader {
 public:
  explicit Reader(std::string_view bytes) : data_(bytes) {}
  bool done() const { return pos_ >= data_.size(); }
  size_t pos() const { return pos_; }
  bool varint(uint64_t& v);
  // The next field's number and wire type; false at the end or on a malformed tag.
  bool tag(uint32_t& field, WireType& type);
  bool bytes(std::string_view& out);  // a length-delimited value
  bool skip(WireType type);           // any value of the given type

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

// Writers (fixtures, tests).
void putVarint(std::string& out, uint64_t v);
void putTag(std::string& out, uint32_t field, WireType type);
void putBytes(std::string& out, uint32_t field, std::string_view bytes);
void putVarintField(std::string& out, uint32_t field, uint64_t v);

}  // namespace opscope::pb
