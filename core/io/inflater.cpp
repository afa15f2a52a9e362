#include "io/inflater.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

#ifndef OPSCOPE_HAVE_ISAL
#define OPSCOPE_HAVE_ISAL 0
#endif
#if OPSCOPE_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace opscope {

namespace {

// Both libraries count in 32 bits.
constexpr size_t kMaxStep = std::numeric_limits<uint32_t>::max() / 2;

class ZlibInflater final : public Inflater {
 public:
  ZlibInflater() {
    std::memset(&z_, 0, sizeof z_);
    ok_ = inflateInit2(&z_, 15 + 16) == Z_OK;  // 16: gzip wrapper only
    if (!ok_) error_ = "cannot initialise zlib";
  }
  ~ZlibInflater() override {
    if (ok_) inflateEnd(&z_);
  }
  Step step(const unsigned char*& in, size_t& inLen, char*& out, size_t& outLen) override {
    if (!ok_) return Step::kError;
    z_.next_in = const_cast<Bytef*>(in);
    z_.avail_in = static_cast<uInt>(std::min(inLen, kMaxStep));
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(std::min(outLen, kMaxStep));
    const uInt inBefore = z_.avail_in, outBefore = z_.avail_out;
    const int rc = inflate(&z_, Z_NO_FLUSH);
    in += inBefore - z_.avail_in;
    inLen -= inBefore - z_.avail_in;
    out += outBefore - z_.avail_out;
    outLen -= outBefore - z_.avail_out;
    if (rc == Z_STREAM_END) return Step::kMemberEnd;
    if (rc == Z_OK || rc == Z_BUF_ERROR) return Step::kMore;
    error_ = z_.msg ? z_.msg : "inflate failed";
    return Step::kError;
  }
  void reset() override {
    if (ok_) inflateReset(&z_);
  }
  std::string error() const override { return error_; }
  const char* name() const override { return "zlib"; }

 private:
  z_stream z_;
  bool ok_ = false;
  std::string error_;
};

#if OPSCOPE_HAVE_ISAL
class IsalInflater final : public Inflater {
 public:
  IsalInflater() : s_(std::make_unique<inflate_state>()) { reset(); }
  Step step(const unsigned char*& in, size_t& inLen, char*& out, size_t& outLen) override {
    s_->next_in = const_cast<uint8_t*>(in);
    s_->avail_in = static_cast<uint32_t>(std::min(inLen, kMaxStep));
    s_->next_out = reinterpret_cast<uint8_t*>(out);
    s_->avail_out = static_cast<uint32_t>(std::min(outLen, kMaxStep));
    const uint32_t inBefore = s_->avail_in, outBefore = s_->avail_out;
    const int rc = isal_inflate(s_.get());
    // At a member's end ISA-L hands back the look-ahead it had not used, so avail_in
    // counts exactly the bytes after the trailer.
    in += inBefore - s_->avail_in;
    inLen -= inBefore - s_->avail_in;
    out += outBefore - s_->avail_out;
    outLen -= outBefore - s_->avail_out;
    if (rc < 0 || rc == ISAL_NEED_DICT) {
      error_ = describe(rc);
      return Step::kError;
    }
    if (s_->block_state == ISAL_BLOCK_FINISH) return Step::kMemberEnd;
    return Step::kMore;
  }
  void reset() override {
    isal_inflate_init(s_.get());
    s_->crc_flag = ISAL_GZIP;  // parse the header, check the CRC and length in the trailer
  }
  std::string error() const override { return error_; }
  const char* name() const override { return "isa-l"; }

 private:
  // zlib's wording for the same faults, so messages do not depend on the engine.
  static std::string describe(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK:
        return "invalid block type";
      case ISAL_INVALID_SYMBOL:
        return "invalid code";
      case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
      case ISAL_INVALID_WRAPPER:
        return "incorrect header check";
      case ISAL_UNSUPPORTED_METHOD:
        return "unknown compression method";
      case ISAL_INCORRECT_CHECKSUM:
        return "incorrect data check";
      case ISAL_NEED_DICT:
        return "needs a preset dictionary";
      default:
        return "inflate failed (ISA-L " + std::to_string(rc) + ")";
    }
  }
  std::unique_ptr<inflate_state> s_;
  std::string error_;
};
#endif

}  // namespace

bool haveIsal() { return OPSCOPE_HAVE_ISAL != 0; }

std::unique_ptr<Inflater> makeInflater(InflateEngine engine) {
#if OPSCOPE_HAVE_ISAL
  if (engine != InflateEngine::kZlib) return std::make_unique<IsalInflater>();
#else
  if (engine == InflateEngine::kIsal) return nullptr;
#endif
  return std::make_unique<ZlibInflater>();
}

}  // namespace opscope
