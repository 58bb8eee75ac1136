// Peer driver for stb_image's stbi_info_from_memory (Debian libstb-dev). Same commands as
// the other peers (Benchmarks/compare.py): time MS FILE..., minbytes FILE..., repeat N FILE...
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned char *load(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc(*size > 0 ? *size : 1);
    if (fread(data, 1, *size, file) != (size_t)*size) { free(data); fclose(file); return NULL; }
    fclose(file);
    return data;
}

static int probe(const unsigned char *data, long size, int *w, int *h) {
    int components;
    return stbi_info_from_memory(data, (int)size, w, h, &components);
}

/// Whether the answer on data[0..<n] followed by each of a few suffixes is (w, h): an answer
/// that doesn't depend on bytes not yet seen (end of file counts as just one of them).
static int robust(const unsigned char *data, long n, int w, int h) {
    static const unsigned char suffixes[5][16] = {
        {0}, {'0','0','0','0','0','0','0','0','0','0','0','0','0','0','0','0'},
        {0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF},
        {0x9A,0x11,0xE3,0x42,0x07,0xC8,0x5D,0x2B,0x76,0xF0,0x38,0x81,0x4E,0xD9,0x13,0x6C}, {1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1}};
    unsigned char *buffer = malloc(n + 16);
    memcpy(buffer, data, n);
    int ok = 1;
    for (int k = 0; k < 6 && ok; k++) {
        long length = n;
        if (k > 0) { memcpy(buffer + n, suffixes[k - 1], 16); length = n + 16; }
        int a = -1, b = -1;
        ok = probe(buffer, length, &a, &b) && a == w && b == h;
    }
    free(buffer);
    return ok;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    const char *command = argv[1];
    if (strcmp(command, "repeat") == 0) {
        int count = atoi(argv[2]);
        int files = argc - 3;
        unsigned char **data = calloc(files, sizeof *data);
        long *sizes = calloc(files, sizeof *sizes);
        for (int i = 0; i < files; i++) data[i] = load(argv[i + 3], &sizes[i]);
        long total = 0;
        for (int n = 0; n < count; n++)
            for (int i = 0; i < files; i++) {
                int w = 0, h = 0;
                if (data[i] && probe(data[i], sizes[i], &w, &h)) total += w;
            }
        printf("%ld\n", total);
        return 0;
    }
    int prefixes = strcmp(command, "minbytes") == 0 || strcmp(command, "robustbytes") == 0;
    for (int i = 3 - prefixes; i < argc; i++) {
        long size;
        unsigned char *data = load(argv[i], &size);
        int w = -1, h = -1;
        if (!data || !probe(data, size, &w, &h)) { printf("%s\t-1\t-1\t-1\n", argv[i]); free(data); continue; }
        if (strcmp(command, "time") == 0) {
            double budget = atof(argv[2]) * 1e6, start = now_ns(), elapsed;
            long iterations = 0;
            do {
                int a, b;
                for (int k = 0; k < 16; k++) probe(data, size, &a, &b);
                iterations += 16;
                elapsed = now_ns() - start;
            } while (elapsed < budget);
            printf("%s\t%.1f\t%d\t%d\n", argv[i], elapsed / iterations, w, h);
        } else {
            long low = 1, high = size;  // smallest prefix with the whole file's answer
            while (low < high) {
                long middle = low + (high - low) / 2;
                int a = -1, b = -1;
                int same = strcmp(command, "robustbytes") == 0 ? robust(data, middle, w, h)
                                                              : probe(data, middle, &a, &b) && a == w && b == h;
                if (same) high = middle; else low = middle + 1;
            }
            printf("%s\t%ld\t%d\t%d\n", argv[i], low, w, h);
        }
        free(data);
    }
    return 0;
}
