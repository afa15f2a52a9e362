#include "model/args.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace opscope {

namespace {
// Writes v at p (at most 10 bytes) and returns the end.
uint8_t* putVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}
uint64_t getVarint(const uint8_t*& p) {
  uint64_t v = 0;
  int shift = 0;
  while (*p & 0x80) {
    v |= static_cast<uint64_t>(*p++ & 0x7F) << shift;
    shift += 7;
  }
  v |= static_cast<uint64_t>(*p++) << shift;
  return v;
}
}  // namespace

// Every record is written in place: header (<= 6 bytes) + value (<= 10 bytes).
uint8_t* ArgsWriter::header(StringId key, ArgType t) {
  // Room for a key's varint (5), the type (1) and the longest value (a 10-byte varint).
  if (bytes_.size() < used_ + 16) bytes_.resize(std::max<size_t>(2 * bytes_.size(), used_ + 16));
  uint8_t* p = putVarint(bytes_.data() + used_, key);
  *p++ = static_cast<uint8_t>(t);
  ++count_;
  return p;
}
void ArgsWriter::finish(uint8_t* end) { used_ = static_cast<size_t>(end - bytes_.data()); }
void ArgsWriter::addInt(StringId key, int64_t v) {
  finish(putVarint(header(key, ArgType::Int), (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)));
}
void ArgsWriter::addDouble(StringId key, double v) {
  uint8_t* p = header(key, ArgType::Double);
  std::memcpy(p, &v, 8);
  finish(p + 8);
}
void ArgsWriter::addString(StringId key, StringId v) { finish(putVarint(header(key, ArgType::String), v)); }
void ArgsWriter::addJson(StringId key, StringId rawText) { finish(putVarint(header(key, ArgType::Json), rawText)); }
void ArgsWriter::addNull(StringId key) { finish(header(key, ArgType::Null)); }
void ArgsWriter::addBool(StringId key, bool v) { finish(header(key, v ? ArgType::True : ArgType::False)); }

uint64_t ArgsWriter::appendTo(PodColumn<uint8_t>& blob) const {
  const uint64_t offset = blob.size();
  uint8_t head[10];
  blob.append(head, static_cast<size_t>(putVarint(head, count_) - head));
  blob.append(bytes_.data(), used_);
  return offset;
}

std::vector<Arg> decodeArgs(std::span<const uint8_t> blob, uint64_t offset) {
  std::vector<Arg> out;
  if (offset >= blob.size()) return out;
  const uint8_t* p = blob.data() + offset;
  const uint64_t n = getVarint(p);
  out.reserve(n);
  for (uint64_t k = 0; k < n; ++k) {
    Arg a;
    a.key = static_cast<StringId>(getVarint(p));
    a.value.type = static_cast<ArgType>(*p++);
    switch (a.value.type) {
      case ArgType::Int: {
        const uint64_t z = getVarint(p);
        a.value.i = static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
        break;
      }
      case ArgType::Double:
        std::memcpy(&a.value.d, p, 8);
        p += 8;
        break;
      case ArgType::String:
      case ArgType::Json:
        a.value.s = static_cast<StringId>(getVarint(p));
        break;
      default:
        break;
    }
    out.push_back(a);
  }
  return out;
}

size_t appendArgsTranslated(std::span<const uint8_t> blob, std::span<const uint32_t> offsets,
                            std::span<const StringId> ids, uint32_t none, PodColumn<uint8_t>& to,
                            PodColumn<uint32_t>& toOffsets) {
  size_t dropped = 0;
  toOffsets.reserve(toOffsets.size() + offsets.size());
  for (const uint32_t offset : offsets) {
    if (offset == none || offset >= blob.size()) {
      toOffsets.push_back(none);
      continue;
    }
    const uint8_t* p = blob.data() + offset;
    const uint64_t n = getVarint(p);
    // Each arg: key (<= 5 bytes as a string id), type, value (<= 10).
    const size_t at = to.size(), most = at + 10 + static_cast<size_t>(n) * 16;
    if (most > to.capacity()) to.reserve(std::max(most, to.capacity() * 2));  // grown geometrically
    to.resizeForOverwrite(most);
    uint8_t* const record = to.data() + at;
    uint8_t* q = putVarint(record, n);
    uint8_t* const payload = q;
    for (uint64_t k = 0; k < n; ++k) {
      q = putVarint(q, ids[getVarint(p)]);
      const auto type = static_cast<ArgType>(*p++);
      *q++ = static_cast<uint8_t>(type);
      switch (type) {
        case ArgType::Int:
          q = putVarint(q, getVarint(p));
          break;
        case ArgType::Double:
          std::memcpy(q, p, 8);
          p += 8;
          q += 8;
          break;
        case ArgType::String:
        case ArgType::Json:
          q = putVarint(q, ids[getVarint(p)]);
          break;
        default:
          break;
      }
    }
    // The single pass's test (TraceBuilder::appendRow): the payload and ten bytes.
    if (at + static_cast<size_t>(q - payload) + 10 >= none) {
      to.resizeForOverwrite(at);
      toOffsets.push_back(none);
      ++dropped;
      continue;
    }
    to.resizeForOverwrite(at + static_cast<size_t>(q - record));
    toOffsets.push_back(static_cast<uint32_t>(at));
  }
  return dropped;
}

std::string jsonQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          out += buf;
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

static std::string doubleText(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  // Prefer the shortest text that reads back to the same double.
  for (int prec = 1; prec < 17; ++prec) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", prec, d);
    if (std::strtod(shorter, nullptr) == d) return shorter;
  }
  return buf;
}

std::string argValueToJson(const ArgValue& v, const StringPool& pool) {
  switch (v.type) {
    case ArgType::Null:
      return "null";
    case ArgType::False:
      return "false";
    case ArgType::True:
      return "true";
    case ArgType::Int:
      return std::to_string(v.i);
    case ArgType::Double:
      return doubleText(v.d);
    case ArgType::String:
      return jsonQuote(pool.get(v.s));
    case ArgType::Json:
      return std::string(pool.get(v.s));
  }
  return "null";
}

std::string argValueToText(const ArgValue& v, const StringPool& pool) {
  if (v.type == ArgType::String) return std::string(pool.get(v.s));
  return argValueToJson(v, pool);
}

NamedArg toNamedArg(const Arg& a, const StringPool& pool) {
  NamedArg n;
  n.key = std::string(pool.get(a.key));
  n.type = a.value.type;
  n.i = a.value.i;
  n.d = a.value.d;
  if (a.value.type == ArgType::String || a.value.type == ArgType::Json) n.text = std::string(pool.get(a.value.s));
  return n;
}

std::string namedArgJson(const NamedArg& a) {
  switch (a.type) {
    case ArgType::Null:
      return "null";
    case ArgType::False:
      return "false";
    case ArgType::True:
      return "true";
    case ArgType::Int:
      return std::to_string(a.i);
    case ArgType::Double:
      return doubleText(a.d);
    case ArgType::String:
      return jsonQuote(a.text);
    case ArgType::Json:
      return a.text;
  }
  return "null";
}

std::string namedArgText(const NamedArg& a) { return a.type == ArgType::String ? a.text : namedArgJson(a); }

std::optional<int64_t> intArg(const std::vector<NamedArg>& args, std::string_view key) {
  for (const NamedArg& a : args) {
    if (a.key != key) continue;
    if (a.type == ArgType::Int) return a.i;
    if (a.type == ArgType::Double && a.d > -9e18 && a.d < 9e18) return static_cast<int64_t>(a.d);
  }
  return std::nullopt;
}

bool LazyArgs::readMany(std::span<const uint64_t> offsets, const Sink& sink, std::string* error,
                        const KeyFilter* keep) const {
  std::vector<size_t> order(offsets.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return offsets[a] < offsets[b]; });
  for (size_t i : order) {
    std::string e;
    std::vector<NamedArg> args = read(offsets[i], &e);
    if (!e.empty()) {
      if (error) *error = std::move(e);
      return false;
    }
    if (keep) std::erase_if(args, [&](const NamedArg& a) { return !(*keep)(i, a.key); });
    sink(i, std::move(args));
  }
  return true;
}

}  // namespace opscope
