#ifndef AREAS_MEMORY_HINTS_H
#define AREAS_MEMORY_HINTS_H

/// Asks for the cache line holding `address` to be loaded for reading, without waiting for it.
/// A search that knows which nodes it will read next overlaps their cache misses this way; the
/// Swift standard library has no prefetch of its own.
static inline __attribute__((always_inline)) void areas_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// The allocator's heap: bytes in use (including blocks mapped on their own) and bytes held
/// free in its arenas, over every arena. glibc's `mallinfo2`; zero elsewhere. The Glibc module
/// does not export `malloc.h`.
#include <stdlib.h>  /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
static inline void areas_heap_usage(size_t *in_use, size_t *held_free) {
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *held_free = info.fordblks;
}
#else
static inline void areas_heap_usage(size_t *in_use, size_t *held_free) {
    *in_use = 0;
    *held_free = 0;
}
#endif

#if defined(__GLIBC__)
#include <spawn.h>
/// Closes every descriptor from `from` up in the spawned child: glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module leaves out.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
static inline int areas_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
#endif

#endif
