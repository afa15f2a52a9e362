#pragma once
// A growable array of trivially copyable values for the big per-event columns.
//
// Why not std::vector: growing a vector copies every element into fresh memory, and on
// these VMs each first touch of a page is costly (0.6-2.7 ms a MiB). Large columns here
// live in anonymous mappings of their own that grow with mremap, which moves page
// tables instead of bytes, so each byte is touched once. They do not ask for huge pages
// (pod_column.cpp says why). Small columns (most tracks are tiny) stay on the malloc
// heap.
//
// Invariants: data() is null only when capacity() == 0; elements [0, size()) are
// initialised; the mapping (when used) is a whole number of 2 MiB units.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

namespace opscope {

namespace podcolumn_detail {
// Raw storage primitives (pod_column.cpp). They throw std::bad_alloc on failure.
void* allocate(size_t bytes, size_t& granted);
void* reallocate(void* p, size_t oldGranted, size_t used, size_t bytes, size_t& granted);
void release(void* p, size_t granted);
}  // namespace podcolumn_detail

template <typename T>
class PodColumn {
  static_assert(std::is_trivially_copyable_v<T>, "PodColumn holds plain values only");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  PodColumn() = default;
  PodColumn(std::initializer_list<T> init) { append(init.begin(), init.size()); }
  ~PodColumn() { podcolumn_detail::release(data_, granted_); }
  PodColumn(const PodColumn& o) { append(o.data_, o.size_); }
  PodColumn& operator=(const PodColumn& o) {
    if (this != &o) {
      clear();
      append(o.data_, o.size_);
    }
    return *this;
  }
  PodColumn(PodColumn&& o) noexcept { swap(o); }
  PodColumn& operator=(PodColumn&& o) noexcept {
    swap(o);
    return *this;
  }
  void swap(PodColumn& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(granted_, o.granted_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return granted_ / sizeof(T); }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

  void push_back(const T& v) {
    if (size_ == capacity()) grow(size_ + 1);
    data_[size_++] = v;
  }
  void append(const T* p, size_t n) {
    if (n == 0) return;
    if (size_ + n > capacity()) grow(size_ + n);
    std::memcpy(static_cast<void*>(data_ + size_), p, n * sizeof(T));
    size_ += n;
  }
  void reserve(size_t n) {
    if (n > capacity()) setCapacity(n);
  }
  void resize(size_t n) {
    reserve(n);
    if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
    size_ = n;
  }
  // Grows to n elements whose new values are unspecified: for a caller that writes
  // every one of them next (zeroing first would touch the memory twice).
  void resizeForOverwrite(size_t n) {
    reserve(n);
    size_ = n;
  }
  void assign(size_t n, const T& v) {
    size_ = 0;
    reserve(n);
    for (size_t i = 0; i < n; ++i) data_[i] = v;
    size_ = n;
  }
  void clear() { size_ = 0; }
  void shrink_to_fit() {
    if (size_ == 0) {
      podcolumn_detail::release(data_, granted_);
      data_ = nullptr;
      granted_ = 0;
    } else if (size_ < capacity()) {
      setCapacity(size_);
    }
  }
  size_t memoryBytes() const { return granted_; }

  friend bool operator==(const PodColumn& a, const PodColumn& b) {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0);
  }

 private:
  void grow(size_t need) {
    size_t n = capacity() < 16 ? 16 : capacity() * 2;
    setCapacity(n < need ? need : n);
  }
  void setCapacity(size_t n) {
    size_t granted = 0;
    void* p = data_ == nullptr
                  ? podcolumn_detail::allocate(n * sizeof(T), granted)
                  : podcolumn_detail::reallocate(data_, granted_, size_ * sizeof(T), n * sizeof(T), granted);
    data_ = static_cast<T*>(p);
    granted_ = granted;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t granted_ = 0;  // bytes of storage
};

}  // namespace opscope
