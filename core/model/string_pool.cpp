#include "model/string_pool.h"

#include <cstring>

namespace opscope {

namespace {
constexpr size_t kBlockBytes = 1 << 20;
}

StringPool::StringPool() {
  slots_.assign(1024, 0);
  intern(std::string_view());
}

uint64_t StringPool::hash(std::string_view s) {
  // FNV-1a over 8-byte words then the tail: fast on the long templated kernel names.
  uint64_t h = 1469598103934665603ull ^ s.size();
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    h = (h ^ static_cast<unsigned char>(*p++)) * 1099511628211ull;
    --n;
  }
  return h ^ (h >> 32);
}

const char* StringPool::store(std::string_view s) {
  if (s.empty()) return "";
  if (s.size() > kBlockBytes / 4) {
    // Large strings get a block of their own so they do not waste the tail of a shared one.
    blocks_.emplace_back(new char[s.size()]);
    std::memcpy(blocks_.back().get(), s.data(), s.size());
    bytes_ += s.size();
    return blocks_.back().get();
  }
  if (cur_ == nullptr || blockUsed_ + s.size() > kBlockBytes) {
    blocks_.emplace_back(new char[kBlockBytes]);
    cur_ = blocks_.back().get();
    blockUsed_ = 0;
    bytes_ += kBlockBytes;
  }
  char* dst = cur_ + blockUsed_;
  std::memcpy(dst, s.data(), s.size());
  blockUsed_ += s.size();
  return dst;
}

StringId StringPool::find(std::string_view s) const {
  const uint64_t h = hash(s);
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const uint32_t slot = slots_[i];
    if (slot == 0) return kNotFound;
    const StringId id = slot - 1;
    if (hashes_[id] == h && views_[id] == s) return id;
  }
}

StringId StringPool::intern(std::string_view s) {
  const uint64_t h = hash(s);
  size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    const uint32_t slot = slots_[i];
    if (slot == 0) break;
    const StringId id = slot - 1;
    if (hashes_[id] == h && views_[id] == s) return id;
  }
  const StringId id = static_cast<StringId>(views_.size());
  views_.emplace_back(store(s), s.size());
  hashes_.push_back(h);
  slots_[i] = id + 1;
  if (views_.size() * 2 > slots_.size()) grow();
  return id;
}

void StringPool::grow() {
  std::vector<uint32_t> next(slots_.size() * 2, 0);
  const size_t mask = next.size() - 1;
  for (StringId id = 0; id < views_.size(); ++id) {
    size_t i = hashes_[id] & mask;
    while (next[i] != 0) i = (i + 1) & mask;
    next[i] = id + 1;
  }
  slots_.swap(next);
}

size_t StringPool::memoryBytes() const {
  return bytes_ + views_.capacity() * sizeof(std::string_view) +
         hashes_.capacity() * 8 + slots_.capacity() * 4;
}

}  // namespace opscope
