// The C interface keeps the scanner's contract (SPEC.md §1, §7), for every file given: the
// answer fed whole equals the answer fed one byte at a time, and at every split in two; every
// proper prefix of the answer gives NEED_MORE; answers are sticky; a NULL or empty feed changes
// nothing. Exit 1 on any difference.
//   cc -Wall -Wextra -Werror -fsanitize=address,undefined -I .build/c/include
//      Tests/c/contract.c .build/c/libimageprobe.a -o contract && ./contract FILE...
#define _POSIX_C_SOURCE 200809L
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imageprobe.h"

static alignas(16) unsigned char scanner[1024];

// Feeds bytes[0..<length] in pieces of `piece` (0: whole), then finishes if needed.
static int scan(const uint8_t *bytes, size_t length, size_t piece, size_t split, imageprobe_info *info) {
    imageprobe_init(scanner, NULL);
    int status = imageprobe_feed(scanner, NULL, 0, info);
    size_t offset = 0;
    while (status == IMAGEPROBE_NEED_MORE && offset < length) {
        size_t take = piece ? piece : length - offset;
        if (split && offset < split && offset + take > split) take = split - offset;
        if (take > length - offset) take = length - offset;
        status = imageprobe_feed(scanner, bytes + offset, take, info);
        offset += take;
    }
    if (status == IMAGEPROBE_NEED_MORE) status = imageprobe_finish(scanner, info);
    return status;
}

static int same(const imageprobe_info *a, const imageprobe_info *b) {
    // Compared field by field: the struct's padding is not the library's to define.
    return a->bytes_read == b->bytes_read && a->format == b->format && a->width == b->width &&
           a->height == b->height && a->display_width == b->display_width && a->display_height == b->display_height &&
           a->orientation == b->orientation && a->bit_depth == b->bit_depth && a->has_alpha == b->has_alpha &&
           a->is_progressive == b->is_progressive && a->is_animated == b->is_animated && a->is_partial == b->is_partial &&
           a->frame_count == b->frame_count && a->loop_count == b->loop_count &&
           strcmp(a->format_name, b->format_name) == 0 && strcmp(a->mime_type, b->mime_type) == 0 &&
           strcmp(a->error, b->error) == 0 && strcmp(a->message, b->message) == 0 &&
           a->detected_format == b->detected_format && strcmp(a->eps_preview, b->eps_preview) == 0;
}

// Misuse the header names gives IMAGEPROBE_ERROR_ARGUMENT, never a crash (run under ASan and
// UBSan): NULL or misaligned or never-initialised scanners, NULL `out`, NULL bytes with a length.
static int misuse(void) {
    int failures = 0;
    imageprobe_info info;
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
#define EXPECT(condition) do { if (!(condition)) { printf("FAIL misuse: %s\n", #condition); failures++; } } while (0)
    EXPECT(imageprobe_init(NULL, NULL) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_init(scanner + 1, NULL) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_feed(NULL, png, sizeof png, &info) == IMAGEPROBE_ERROR_ARGUMENT && strcmp(info.error, "argument") == 0);
    EXPECT(imageprobe_finish(NULL, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_pending_skip(NULL) == 0 && imageprobe_skip(NULL, 5) == 0);
    // Memory imageprobe_init never saw: zeros, then garbage.
    alignas(16) static unsigned char fresh[1024];
    EXPECT(imageprobe_feed(fresh, png, sizeof png, &info) == IMAGEPROBE_ERROR_ARGUMENT && strcmp(info.error, "argument") == 0);
    memset(fresh, 0xA5, sizeof fresh);
    EXPECT(imageprobe_feed(fresh, png, sizeof png, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_finish(fresh, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_pending_skip(fresh) == 0 && imageprobe_skip(fresh, 5) == 0);
    // A good scanner with bad arguments: refused, and the scan goes on unharmed.
    EXPECT(imageprobe_init(scanner, NULL) == IMAGEPROBE_NEED_MORE);
    EXPECT(imageprobe_feed(scanner, NULL, 5, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_feed(scanner, png, sizeof png, NULL) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_finish(scanner, NULL) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_feed(scanner, png, sizeof png, &info) == IMAGEPROBE_NEED_MORE && info.bytes_read == sizeof png);
    EXPECT(imageprobe_feed(scanner, NULL, 0, &info) == IMAGEPROBE_NEED_MORE && info.bytes_read == sizeof png);
    // An ended scan's memory, overwritten, is refused again.
    memset(scanner, 0, sizeof scanner);
    EXPECT(imageprobe_finish(scanner, &info) == IMAGEPROBE_ERROR_ARGUMENT);
#undef EXPECT
    return failures;
}

int main(int argc, char **argv) {
    int failures = misuse();
    long checks = 15;
    for (int index = 1; index < argc; index++) {
        FILE *file = fopen(argv[index], "rb");
        if (!file) { perror(argv[index]); return 2; }
        fseek(file, 0, SEEK_END);
        long size = ftell(file);
        fseek(file, 0, SEEK_SET);
        // At most the first 256 KiB: every split of that is enough for an answer in most files.
        size_t length = size > 262144 ? 262144 : (size_t)size;
        uint8_t *bytes = malloc(length ? length : 1);
        if (fread(bytes, 1, length, file) != length) return 2;
        fclose(file);

        imageprobe_info whole, other;
        int expected = scan(bytes, length, 0, 0, &whole);
        size_t answer = (size_t)whole.bytes_read;
        struct { size_t piece, split; } ways[] = {{1, 0}, {7, 0}, {4096, 0}};
        for (size_t way = 0; way < sizeof ways / sizeof ways[0]; way++) {
            checks++;
            if (scan(bytes, length, ways[way].piece, 0, &other) != expected || !same(&whole, &other)) {
                printf("FAIL %s: %zu-byte pieces differ from whole\n", argv[index], ways[way].piece);
                failures++;
            }
        }
        for (size_t split = 1; split < answer && split < 4096; split++) {
            checks++;
            if (scan(bytes, length, 0, split, &other) != expected || !same(&whole, &other)) {
                printf("FAIL %s: split at %zu differs from whole\n", argv[index], split);
                failures++;
                break;
            }
        }
        // Every proper prefix of the answer point needs more.
        imageprobe_init(scanner, NULL);
        for (size_t offset = 0; offset + 1 < answer && offset < 4096; offset++) {
            checks++;
            if (imageprobe_feed(scanner, bytes + offset, 1, &other) != IMAGEPROBE_NEED_MORE) {
                printf("FAIL %s: answered after %zu of %zu bytes\n", argv[index], offset + 1, answer);
                failures++;
                break;
            }
        }
        // Sticky, and NULL/empty feeds change nothing.
        scan(bytes, length, 0, 0, &whole);
        checks++;
        if (expected != IMAGEPROBE_NEED_MORE &&
            (imageprobe_feed(scanner, bytes, length, &other) != expected || !same(&whole, &other) ||
             imageprobe_feed(scanner, NULL, 0, &other) != expected || imageprobe_finish(scanner, &other) != expected)) {
            printf("FAIL %s: the answer is not sticky\n", argv[index]);
            failures++;
        }
        free(bytes);
    }
    printf("%ld checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
