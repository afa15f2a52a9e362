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
  // Multiply-xorshift over 8-byte words in four independent lanes, so long strings
  // (kernel names, "Input Dims" lists) hash at several bytes per cycle.
  constexpr uint64_t k0 = 0x9E3779B97F4A7C15ull, k1 = 0xC2B2AE3D27D4EB4Full, k2 = 0x165667B19E3779F9ull,
                     k3 = 0xD6E8FEB86659FD93ull;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t a = k0 ^ n, b = k1, c = k2, d = k3;
  auto word = [](const char* q) {
    uint64_t w;
    std::memcpy(&w, q, 8);
    return w;
  };
  while (n >= 32) {
    a = (a ^ word(p)) * k1;
    b = (b ^ word(p + 8)) * k2;
    c = (c ^ word(p + 16)) * k3;
    d = (d ^ word(p + 24)) * k0;
    a ^= a >> 29;
    b ^= b >> 31;
    c ^= c >> 27;
    d ^= d >> 33;
    p += 32;
    n -= 32;
  }
  while (n >= 8) {
    a = (a ^ word(p)) * k1;
    a ^= a >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  if (n) std::memcpy(&tail, p, n);  // an empty view may hold a null pointer
  a = (a ^ tail ^ (static_cast<uint64_t>(n) << 56)) * k2;
  uint64_t h = a ^ (b * k3) ^ (c * k0) ^ (d * k1);
  h ^= h >> 32;
  h *= k0;
  return h ^ (h >> 29);
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
  if (cur_ == nullptr || blockUsed_ + s.size() > curBytes_) {
    // Blocks double from 4 KiB up to kBlockBytes: a small trace needs no large block.
    curBytes_ = cur_ == nullptr ? std::max<size_t>(4096, s.size()) : std::min(curBytes_ * 2, kBlockBytes);
    if (curBytes_ < s.size()) curBytes_ = kBlockBytes;
    blocks_.emplace_back(new char[curBytes_]);
    cur_ = blocks_.back().get();
    blockUsed_ = 0;
    bytes_ += curBytes_;
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
  // Front cache: slot from (length, first and last 8 bytes; zero-padded when shorter),
  // answer checked with one memcmp, so repeated names skip hashing their whole text.
  uint64_t first = 0, last = 0;
  if (s.size() >= 8) {
    std::memcpy(&first, s.data(), 8);
    std::memcpy(&last, s.data() + s.size() - 8, 8);
  } else if (!s.empty()) {
    std::memcpy(&first, s.data(), s.size());
  }
  const uint64_t mix =
      (first * 0x9E3779B97F4A7C15ull) ^ (last * 0xC2B2AE3D27D4EB4Full) ^ (s.size() * 0x165667B19E3779F9ull);
  StringId& slot = recent_[(mix >> 40) & (kRecentSlots - 1)];
  if (slot != kNotFound) {
    const std::string_view v = views_[slot];
    if (v.size() == s.size() && (s.empty() || std::memcmp(v.data(), s.data(), s.size()) == 0)) return slot;
  }
  slot = internHashed(s);
  return slot;
}

StringId StringPool::internHashed(std::string_view s) {
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
  return bytes_ + views_.capacity() * sizeof(std::string_view) + hashes_.capacity() * 8 + slots_.capacity() * 4;
}

}  // namespace opscope
