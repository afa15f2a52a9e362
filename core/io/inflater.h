#pragma once
// One gzip stream's decoder, member by member. Two engines behind one interface:
// ISA-L (Debian's libisal, hand-written SIMD: about 2-3x zlib's speed on trace JSON)
// reads every file when the build has it; zlib is the reference the tests hold ISA-L to,
// and the fallback when libisal is absent.
#include <cstddef>
#include <memory>
#include <string>

namespace opscope {

enum class InflateEngine { kBest, kZlib, kIsal };

class Inflater {
 public:
  enum class Step {
    kMore,       // in or out ran out: call again with more input or more room
    kMemberEnd,  // a gzip member's trailer was read and checked; reset() before the next
    kError,      // corrupt data: error() says what
  };
  virtual ~Inflater() = default;
  // Decodes from [in, in + inLen) into [out, out + outLen), advancing both past what it
  // used and wrote. Never reads past a member's trailer: what follows stays in `in`.
  virtual Step step(const unsigned char*& in, size_t& inLen, char*& out, size_t& outLen) = 0;
  // Ready for the next gzip member (concatenated .gz files are one stream).
  virtual void reset() = 0;
  virtual std::string error() const = 0;
  virtual const char* name() const = 0;  // "isa-l" or "zlib"
};

// kBest: ISA-L when built with it, else zlib. kIsal without ISA-L: nullptr.
std::unique_ptr<Inflater> makeInflater(InflateEngine engine = InflateEngine::kBest);
bool haveIsal();

}  // namespace opscope
