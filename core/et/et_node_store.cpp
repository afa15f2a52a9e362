#include "et/et_node_store.h"

#include <zlib.h>

#include <atomic>
#include <stdexcept>

namespace opscope {

namespace {

std::atomic<uint64_t> nextGeneration{1};

// The last block inflated on this thread: which store (by generation) and block.
struct Cache {
  uint64_t generation = 0;
  uint32_t block = 0;
  std::string bytes;
};
thread_local Cache cache;

}  // namespace

EtNodeStore::EtNodeStore() : generation_(nextGeneration.fetch_add(1)) {}

EtNodeStore::Ref EtNodeStore::add(std::string_view bytes) {
  if (!open_.empty() && open_.size() + bytes.size() > kBlockBytes) close();
  Ref r{static_cast<uint32_t>(blocks_.size()), static_cast<uint32_t>(open_.size()),
        static_cast<uint32_t>(bytes.size())};
  open_.append(bytes);
  return r;
}

void EtNodeStore::close() {
  Block b;
  b.size = static_cast<uint32_t>(open_.size());
  uLongf out = compressBound(static_cast<uLong>(open_.size()));
  b.deflated.resize(out);
  // Level 1: the nodes' repeated keys compress almost as well as at 6, several times faster.
  if (compress2(reinterpret_cast<Bytef*>(b.deflated.data()), &out, reinterpret_cast<const Bytef*>(open_.data()),
                static_cast<uLong>(open_.size()), 1) != Z_OK)
    throw std::runtime_error("execution trace: compressing a block of nodes failed");
  b.deflated.resize(out);
  b.deflated.shrink_to_fit();
  blocks_.push_back(std::move(b));
  open_.clear();
}

void EtNodeStore::finish() {
  if (!open_.empty()) close();
  open_.shrink_to_fit();
  blocks_.shrink_to_fit();
}

std::string EtNodeStore::get(Ref r) const {
  if (r.block == blocks_.size()) return open_.substr(r.offset, r.size);  // still being filled
  if (r.block > blocks_.size()) return {};
  if (cache.generation != generation_ || cache.block != r.block) {
    const Block& b = blocks_[r.block];
    cache.bytes.resize(b.size);
    uLongf out = b.size;
    if (uncompress(reinterpret_cast<Bytef*>(cache.bytes.data()), &out,
                   reinterpret_cast<const Bytef*>(b.deflated.data()), static_cast<uLong>(b.deflated.size())) != Z_OK ||
        out != b.size) {
      cache.generation = 0;
      return {};
    }
    cache.generation = generation_;
    cache.block = r.block;
  }
  if (static_cast<size_t>(r.offset) + r.size > cache.bytes.size()) return {};
  return cache.bytes.substr(r.offset, r.size);
}

size_t EtNodeStore::storedBytes() const {
  size_t n = open_.size();
  for (const Block& b : blocks_) n += b.deflated.size();
  return n;
}

}  // namespace opscope
