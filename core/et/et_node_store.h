#pragma once
// The bytes of an execution trace's nodes (MessagePack of each node as read), kept in
// deflated blocks of about 64 KiB: the keys every node repeats ("inputs", "shapes",
// "attrs", "name", "value", …) compress tenfold, so a 10^6-node trace keeps ~25 MB
// where the packed bytes took ~210 MB and the JSON DOMs 2.4 GB.
//
// Reading a node inflates its block; the last block read is cached per thread, so a
// walk over the nodes in order (writing ET+) inflates each block once. Adding is for
// the loader only (one thread); reading is safe from any number of threads once the
// store is finished.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace opscope {

class EtNodeStore {
 public:
  struct Ref {
    uint32_t block = 0, offset = 0, size = 0;
  };

  EtNodeStore();
  // One generation a store: a copy would share it and the per-thread cache would serve
  // one store's block for the other's (ExecutionTrace shares its store by shared_ptr).
  EtNodeStore(const EtNodeStore&) = delete;
  EtNodeStore& operator=(const EtNodeStore&) = delete;
  // Appends bytes; a node larger than a block gets a block of its own.
  Ref add(std::string_view bytes);
  // Deflates the block being filled (adding afterwards opens a new one).
  void finish();
  // A node's bytes (a copy).
  std::string get(Ref r) const;
  // Deflated bytes held, for the memory figures.
  size_t storedBytes() const;

  static constexpr size_t kBlockBytes = 64 * 1024;

 private:
  struct Block {
    std::string deflated;
    uint32_t size = 0;  // inflated
  };
  void close();
  uint64_t generation_;  // tells this store's blocks apart in the per-thread cache
  std::vector<Block> blocks_;
  std::string open_;  // the block being filled, index blocks_.size()
};

}  // namespace opscope
