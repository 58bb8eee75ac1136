// Counts heap allocations for the benchmark's "zero allocations per scan" check.
//
// On glibc the executable's definitions of malloc, calloc, realloc, free and the aligned
// allocators take precedence over libc's, and glibc exports its own implementations as
// __libc_malloc and friends, so the wrappers can forward without dlsym (which would itself
// allocate). Counting is off unless armed, so the benchmark's own allocations around a scan
// don't count.
#include "MallocCounter.h"

#if defined(__GLIBC__)
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_int armed = 0;
static atomic_ullong allocations = 0;

static inline void count(void) {
    if (atomic_load_explicit(&armed, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return 12; /* ENOMEM */
    *result = pointer;
    return 0;
}

int malloc_counter_available(void) { return 1; }

void malloc_counter_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&armed, 1);
}

uint64_t malloc_counter_stop(void) {
    atomic_store(&armed, 0);
    return atomic_load(&allocations);
}
#else
int malloc_counter_available(void) { return 0; }
void malloc_counter_start(void) {}
uint64_t malloc_counter_stop(void) { return 0; }
#endif
