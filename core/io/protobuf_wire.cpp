#include "io/protobuf_wire.h"

namespace opscope::pb {

bool Reader::varint(uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) return false;
    const uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;  // more than 10 bytes
}

bool Reader::tag(uint32_t& field, WireType& type) {
  uint64_t t = 0;
  if (!varint(t)) return false;
  field = static_cast<uint32_t>(t >> 3);
  type = static_cast<WireType>(t & 7);
  return field != 0 && (type == Varint || type == Fixed64 || type == Bytes || type == Fixed32);
}

bool Reader::bytes(std::string_view& out) {
  uint64_t n = 0;
  if (!varint(n) || n > data_.size() - pos_) return false;
  out = data_.substr(pos_, static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return true;
}

bool Reader::skip(WireType type) {
  uint64_t v;
  std::string_view s;
  switch (type) {
    case Varint: return varint(v);
    case Bytes: return bytes(s);
    case Fixed64:
      if (data_.size() - pos_ < 8) return false;
      pos_ += 8;
      return true;
    case Fixed32:
      if (data_.size() - pos_ < 4) return false;
      pos_ += 4;
      return true;
  }
  return false;
}

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void putTag(std::string& out, uint32_t field, WireType type) { putVarint(out, (static_cast<uint64_t>(field) << 3) | type); }

void putBytes(std::string& out, uint32_t field, std::string_view bytes) {
  putTag(out, field, Bytes);
  putVarint(out, bytes.size());
  out.append(bytes);
}

void putVarintField(std::string& out, uint32_t field, uint64_t v) {
  putTag(out, field, Varint);
  putVarint(out, v);
}

}  // namespace opscope::pb
