#pragma once
// Work split in two halves, the second on a thread of its own, when there is enough of
// it and a second core. Below `from` items, on one core, or when no thread can be had
// (a process or cgroup limit), all of it runs on the calling thread, with the same
// result. An exception on the second thread is rethrown on the calling one after both
// halves have stopped.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>

namespace opscope {

inline constexpr size_t kTwoThreadsFrom = size_t{1} << 16;

// f(begin, end) over [0, n) in two halves, [0, n/2) on the calling thread.
template <class F>
void forTwoHalves(size_t n, F&& f, size_t from = kTwoThreadsFrom) {
  const size_t half = n / 2;
  std::exception_ptr failed;
  std::thread second;
  if (n >= from && std::thread::hardware_concurrency() >= 2) {
    try {
      second = std::thread([&] {
        try {
          f(half, n);
        } catch (...) {
          failed = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
    }
  }
  if (!second.joinable()) {
    f(size_t{0}, n);
    return;
  }
  try {
    f(size_t{0}, half);
  } catch (...) {
    second.join();
    throw;
  }
  second.join();
  if (failed) std::rethrow_exception(failed);
}

// std::sort of [first, last) by less, its halves sorted on two threads and merged.
// Elements equal under less may end in another order than one std::sort leaves them:
// for keys where equal elements are interchangeable.
template <class It, class Less>
void sortOnTwoThreads(It first, It last, Less less, size_t from = kTwoThreadsFrom) {
  const size_t n = static_cast<size_t>(last - first);
  bool split = false;
  forTwoHalves(
      n,
      [&](size_t b, size_t e) {
        if (b == 0 && e < n) split = true;  // the calling thread's half (only it writes)
        std::sort(first + static_cast<std::ptrdiff_t>(b), first + static_cast<std::ptrdiff_t>(e), less);
      },
      from);
  if (split) std::inplace_merge(first, first + static_cast<std::ptrdiff_t>(n / 2), last, less);
}

}  // namespace opscope
