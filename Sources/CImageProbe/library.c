// What the native C library (libimageprobe.a, .so) needs besides the scanner, compiled only by
// Scripts/build-c.sh (-DIMAGEPROBE_EMBEDDED_LIBRARY); empty in the package's own build.
//
// Embedded Swift's runtime refers to an allocator and to a random source (Hasher's seed); the
// scanner calls neither. These definitions end up local to the library (build-c.sh keeps only
// the imageprobe_ functions global), so it needs nothing from the C library but memset,
// memcpy, memmove and memcmp: no glibc 2.36 for arc4random_buf, no allocator.
#if defined(IMAGEPROBE_EMBEDDED_LIBRARY) && !defined(__wasm__)
#include <stddef.h>
#include <string.h>

void *malloc(size_t size) { (void)size; return NULL; }
void free(void *pointer) { (void)pointer; }
int posix_memalign(void **result, size_t alignment, size_t size) {
    (void)alignment; (void)size; *result = NULL; return 12; /* ENOMEM */
}
// A fixed seed is enough: the scanner hashes nothing.
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5A, count); }
#else
typedef int imageprobe_library_translation_unit_is_not_empty;
#endif
