#include "malloc_policy.h"

#include <malloc.h>

namespace opscope::app {

void applyMallocPolicy() {
  // Setting it also turns off the dynamic adjustment of this and of the trim threshold.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

}  // namespace opscope::app
