// Probes per second through the C library, every file whole from memory, full mode (as
// `imageprobe-bench repeat`), and the heap allocations the library makes (it must make none:
// malloc and friends are wrapped with the linker's --wrap and counted).
//   cc -O2 -I .build/c/include Benchmarks/c/bench.c .build/c/libimageprobe.a -o bench
//      -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign,--wrap=free
//   ./bench ROUNDS FILE...
#define _POSIX_C_SOURCE 200809L
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "imageprobe.h"

static long allocations = 0;
static int counting = 0;
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
int __real_posix_memalign(void **result, size_t alignment, size_t size);
void __real_free(void *pointer);
void *__wrap_malloc(size_t size) { allocations += counting; return __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { allocations += counting; return __real_calloc(count, size); }
void *__wrap_realloc(void *pointer, size_t size) { allocations += counting; return __real_realloc(pointer, size); }
int __wrap_posix_memalign(void **result, size_t alignment, size_t size) { allocations += counting; return __real_posix_memalign(result, alignment, size); }
void __wrap_free(void *pointer) { __real_free(pointer); }

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int rounds = atoi(argv[1]);
    int files = argc - 2;
    unsigned char **buffers = __real_malloc(sizeof *buffers * files);
    size_t *lengths = __real_malloc(sizeof *lengths * files);
    for (int index = 0; index < files; index++) {
        FILE *file = fopen(argv[index + 2], "rb");
        if (!file) return 1;
        fseek(file, 0, SEEK_END);
        lengths[index] = (size_t)ftell(file);
        fseek(file, 0, SEEK_SET);
        buffers[index] = __real_malloc(lengths[index] + 1);
        if (fread(buffers[index], 1, lengths[index], file) != lengths[index]) return 1;
        fclose(file);
    }
    alignas(16) unsigned char scanner[1024];
    imageprobe_info info;
    long long total = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    counting = 1;
    for (int round = 0; round < rounds; round++) {
        for (int index = 0; index < files; index++) {
            imageprobe_init(scanner, NULL);
            int status = imageprobe_feed(scanner, buffers[index], lengths[index], &info);
            if (status == IMAGEPROBE_NEED_MORE) status = imageprobe_finish(scanner, &info);
            if (status == IMAGEPROBE_DONE) total += info.width;
        }
    }
    counting = 0;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%lld\n", total);
    fprintf(stderr, "c: %ld probes in %.3f s, %.0f probes/s, %ld heap allocations\n", (long)rounds * files, seconds,
            (double)rounds * files / seconds, allocations);
    return allocations == 0 ? 0 : 1;
}
