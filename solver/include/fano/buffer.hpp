// Buffers for the solver's large arrays: not zeroed on construction, and, from
// kLargeBuffer bytes up, placed on transparent huge pages (requested) and kept
// for reuse once freed.
//
// Why: the standard game's solve touches tens of megabytes once, and with
// 4 KiB pages the kernel's page zeroing and faulting took longer than the
// solve's own work. Huge pages cut the faults ~500-fold where the kernel
// grants them (THP "madvise" mode, Debian's default); elsewhere the buffers
// behave as ordinary memory. Faults also serialise threads on the process's
// memory map lock, and the blocks that malloc returned to the system were
// faulted in again by the next solve (the figures:
// results/design-measurements.md).
#pragma once

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace fano {

// Requests of at least this many bytes bypass operator new.
inline constexpr std::size_t kLargeBuffer = std::size_t(1) << 14;

namespace detail {
// A block of at least `bytes` (>= kLargeBuffer), aligned to its size rounded
// up to a power of two or to 2 MiB; a freed block of the same rounded size is
// reused (its contents are arbitrary). Throws std::bad_alloc when the system refuses.
// Thread-safe.
void* allocate_large(std::size_t bytes);
// Returns a block from allocate_large(bytes) (same `bytes`).
void free_large(void* block, std::size_t bytes) noexcept;
}  // namespace detail

// A std::allocator that default-initialises: vector<T>(n) and resize(n) leave
// trivial elements unwritten (callers write every element before reading it).
template <class T>
struct BufferAllocator {
  using value_type = T;
  BufferAllocator() = default;
  template <class U>
  BufferAllocator(const BufferAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kLargeBuffer) return static_cast<T*>(detail::allocate_large(bytes));
    return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kLargeBuffer)
      detail::free_large(p, bytes);
    else
      ::operator delete(p, std::align_val_t(alignof(T)));
  }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no zeroing
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const BufferAllocator<U>&) const noexcept {
    return true;
  }
};

// A vector whose growth does not zero trivial elements (see BufferAllocator).
template <class T>
using UninitVector = std::vector<T, BufferAllocator<T>>;

}  // namespace fano
