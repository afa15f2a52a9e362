#pragma once
// Lazy args of a plain JSON trace file: each slice keeps the byte offset of its args
// object (SliceColumns::argsAt) and this reads the object back when someone asks (the
// details panel, an export). Loading skips interning and encoding every arg, which is
// a third of the parse of a Kineto trace.
//
// The file must not change after loading: its size and modification time are checked
// on every read, and a changed file gives a one-line error instead of wrong args.
#include <string>

#include "model/args.h"

namespace opscope {

class FileArgs final : public LazyArgs {
 public:
  FileArgs(std::string path, uint64_t size, int64_t mtimeNs) : path_(std::move(path)), size_(size), mtimeNs_(mtimeNs) {}
  std::vector<NamedArg> read(uint64_t offset, std::string* error) const override;
  // One open and one check of the file, then the objects parsed out of 1 MiB windows read
  // in offset order (a window starts at the first object it must hold; one that an
  // object overruns is read again from that object, larger).
  bool readMany(std::span<const uint64_t> offsets, const Sink& sink, std::string* error,
                const KeyFilter* keep = nullptr) const override;

 private:
  std::string path_;
  uint64_t size_;
  int64_t mtimeNs_;
};

}  // namespace opscope
