#pragma once
// Interned strings with dense 32-bit ids (as Perfetto's StringPool).
//
// Invariants:
//  - id 0 is always the empty string;
//  - an id, once handed out, stays valid and its view stays at the same address
//    for the pool's lifetime (strings live in append-only blocks, never moved);
//  - intern(s) == intern(t) iff s == t (byte-wise).
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace opscope {

using StringId = uint32_t;

class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  StringId intern(std::string_view s);
  // Returns the id of s when it is already interned, nullopt-like kNotFound otherwise.
  static constexpr StringId kNotFound = 0xFFFFFFFFu;
  StringId find(std::string_view s) const;

  std::string_view get(StringId id) const { return views_[id]; }
  size_t size() const { return views_.size(); }
  // Bytes held by the strings and the index (for memory reports).
  size_t memoryBytes() const;

 private:
  static uint64_t hash(std::string_view s);
  StringId internHashed(std::string_view s);
  void grow();
  const char* store(std::string_view s);

  std::vector<std::string_view> views_;          // id -> string
  std::vector<uint64_t> hashes_;                 // id -> hash, so growing never rehashes text
  std::vector<uint32_t> slots_;                  // open addressing: id + 1, 0 = empty
  std::vector<std::unique_ptr<char[]>> blocks_;  // owned text
  // Front cache: trace names and args keys repeat endlessly (a 1 GB Kineto trace has
  // ~1k distinct strings), so a slot picked by (length, first and last 8 bytes) and
  // checked with one memcmp usually answers without hashing the whole text.
  static constexpr size_t kRecentSlots = 1024;
  std::vector<StringId> recent_ = std::vector<StringId>(kRecentSlots, kNotFound);
  char* cur_ = nullptr;  // shared block being filled
  size_t blockUsed_ = 0;
  size_t curBytes_ = 0;  // size of the shared block
  size_t bytes_ = 0;
};

}  // namespace opscope
