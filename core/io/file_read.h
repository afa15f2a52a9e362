#pragma once
// Positioned reads of an open file, the one loop every reader by offset uses (lazy args,
// the parallel loader's cut guesses, a cluster table's lines read again).
#include <cstddef>
#include <cstdint>

namespace opscope {

// Up to n bytes at offset into out, short reads continued and interrupted ones retried;
// how many were read (fewer: the file ended there, or a read failed).
size_t readAt(int fd, char* out, size_t n, uint64_t offset);

}  // namespace opscope
