#ifndef FIELDTEST_CPREFETCH_H
#define FIELDTEST_CPREFETCH_H

/// Asks the CPU to bring the cache line holding `address` closer (for reading,
/// keep in all cache levels). Unlike a load it never stalls and never faults, so
/// a caller can request lines it will read much later (Swift has no prefetch of its own).
static inline void fieldtest_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
