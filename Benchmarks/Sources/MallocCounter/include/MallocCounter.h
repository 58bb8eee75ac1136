#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// Whether this platform counts allocations (glibc: malloc and friends are interposed).
int malloc_counter_available(void);

/// Starts counting allocations made by any thread, from zero.
void malloc_counter_start(void);

/// Stops counting; returns the number of malloc, calloc, realloc and aligned allocations
/// made since `malloc_counter_start`.
uint64_t malloc_counter_stop(void);

#endif
