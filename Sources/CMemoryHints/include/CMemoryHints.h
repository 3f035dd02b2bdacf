#ifndef AREAS_MEMORY_HINTS_H
#define AREAS_MEMORY_HINTS_H

/// Asks for the cache line holding `address` to be loaded for reading, without waiting for it.
/// A search that knows which nodes it will read next overlaps their cache misses this way; the
/// Swift standard library has no prefetch of its own.
static inline __attribute__((always_inline)) void areas_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
