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

// onCaller() here while onSecond() runs on a thread of its own, when `wanted`, there is a
// second core and a thread can be had; otherwise onCaller() then onSecond() here. Both
// have run when it returns; an exception of either is rethrown once both have stopped.
template <class A, class B>
void runBeside(bool wanted, A&& onCaller, B&& onSecond) {
  std::exception_ptr failed;
  std::thread second;
  if (wanted && std::thread::hardware_concurrency() >= 2) {
    try {
      second = std::thread([&] {
        try {
          onSecond();
        } catch (...) {
          failed = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
    }
  }
  if (!second.joinable()) {
    onCaller();
    onSecond();
    return;
  }
  try {
    onCaller();
  } catch (...) {
    second.join();
    throw;
  }
  second.join();
  if (failed) std::rethrow_exception(failed);
}

// f(begin, end) over [0, n): in two halves, [0, n/2) on the calling thread, from `from`
// items on two cores; else in one call.
template <class F>
void forTwoHalves(size_t n, F&& f, size_t from = kTwoThreadsFrom) {
  if (n < from || std::thread::hardware_concurrency() < 2) {
    f(size_t{0}, n);
    return;
  }
  const size_t half = n / 2;
  runBeside(
      true, [&] { f(size_t{0}, half); }, [&] { f(half, n); });
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
