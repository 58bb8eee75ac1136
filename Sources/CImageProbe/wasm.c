// What a standalone WebAssembly module needs besides the scanner, which allocates nothing and
// calls no I/O: the few C library functions the compiler emits calls to, and the layout of
// imageprobe_info for the JavaScript wrapper. Compiled only for WebAssembly
// (Scripts/build-c.sh); empty elsewhere.
#if defined(__wasm__)
#include <stddef.h>
#include <stdint.h>
#include "imageprobe.h"

void *memset(void *destination, int value, size_t count) {
    unsigned char *out = destination;
    while (count--) *out++ = (unsigned char)value;
    return destination;
}

void *memcpy(void *restrict destination, const void *restrict source, size_t count) {
    unsigned char *out = destination;
    const unsigned char *in = source;
    while (count--) *out++ = *in++;
    return destination;
}

void *memmove(void *destination, const void *source, size_t count) {
    unsigned char *out = destination;
    const unsigned char *in = source;
    if (out < in) {
        while (count--) *out++ = *in++;
    } else {
        while (count--) out[count] = in[count];
    }
    return destination;
}

int memcmp(const void *left, const void *right, size_t count) {
    const unsigned char *a = left, *b = right;
    for (; count; count--, a++, b++) {
        if (*a != *b) return *a - *b;
    }
    return 0;
}

// Embedded Swift's runtime refers to an allocator; the scanner never calls it. Refusing keeps
// the module free of a heap it doesn't need.
void *malloc(size_t size) { (void)size; return NULL; }
void free(void *pointer) { (void)pointer; }
int posix_memalign(void **result, size_t alignment, size_t size) {
    (void)alignment; (void)size; *result = NULL; return 12; /* ENOMEM */
}
// Hashing seeds (the scanner hashes nothing); a fixed seed is enough.
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5A, count); }

// 128-bit multiplication (compiler-rt's __multi3), from 32-bit halves.
typedef struct { uint64_t low, high; } u128;
static uint64_t multiply_high(uint64_t a, uint64_t b) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t middle = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    return p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
}
u128 __multi3(uint64_t a_low, uint64_t a_high, uint64_t b_low, uint64_t b_high) {
    u128 result;
    result.low = a_low * b_low;
    result.high = multiply_high(a_low, b_low) + a_low * b_high + a_high * b_low;
    return result;
}

#endif
