// The range planner through the C interface (imageprobe.h, SPEC.md §6.1), for every file given,
// against simulated servers: one that honours Range, one that ignores it (200, whole body), one
// whose second range comes from another version (a changed ETag), and one that redirects first
// (the planner resolves the Location itself).
// The answer must equal the scanner's on the whole file where the server is honest (but for a
// PNG's eXIf after its image data, which a URL probe doesn't read, SPEC.md §6.1); misuse
// gives IMAGEPROBE_ERROR_ARGUMENT. Exit 1 on any failure.
//   cc -Wall -Wextra -Werror -fsanitize=address,undefined -I .build/c/include
//      Tests/c/planner.c .build/c/libimageprobe.a -o planner && ./planner FILE...
#define _POSIX_C_SOURCE 200809L
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "imageprobe.h"

static alignas(16) unsigned char scanner[1024];
static alignas(16) unsigned char planner[65536];

enum server { RANGES, NO_RANGES, CHANGED, REDIRECT };

static void header(const char *name, const char *value) {
    imageprobe_planner_header(planner, name, strlen(name), value, strlen(value));
}

// Probes `bytes` through the planner against `kind`; returns the final status.
static int probe(const uint8_t *bytes, size_t length, enum server kind, imageprobe_info *info, int *requests) {
    const char *url = "https://images.example/a";
    imageprobe_planner_init(planner, NULL, url, strlen(url));
    imageprobe_plan_request request;
    int exchanges = 0;
    for (;;) {
        int step = imageprobe_planner_next(planner, &request, info);
        if (step == IMAGEPROBE_DONE || step == IMAGEPROBE_UNSUPPORTED) {
            *requests = (int)imageprobe_planner_requests(planner);
            return step;
        }
        if (step != IMAGEPROBE_PLAN_SEND || ++exchanges > 64) return -9;
        char text[96];
        imageprobe_planner_received(planner, 120);  // a head's bytes
        char target[64];
        imageprobe_planner_text(planner, IMAGEPROBE_TEXT_URL, target, sizeof target);
        if (kind == REDIRECT && exchanges > 1 && strcmp(target, "https://images.example/b") != 0) return -8;
        if (kind == REDIRECT && exchanges == 1) {
            header("Location", "/b");
            imageprobe_planner_head(planner, 302);
            imageprobe_planner_end(planner, IMAGEPROBE_BODY_STOPPED);
            continue;
        }
        size_t first = (size_t)request.first, last = (size_t)request.last;
        if (kind == NO_RANGES) {
            first = 0;
            last = length ? length - 1 : 0;
            snprintf(text, sizeof text, "%zu", length);
            header("Content-Length", text);
            if (!imageprobe_planner_head(planner, 200)) { imageprobe_planner_end(planner, IMAGEPROBE_BODY_STOPPED); continue; }
        } else {
            if (first >= length) {
                imageprobe_planner_head(planner, 416);
                imageprobe_planner_end(planner, IMAGEPROBE_BODY_STOPPED);
                continue;
            }
            if (last >= length) last = length - 1;
            snprintf(text, sizeof text, "bytes %zu-%zu/%zu", first, last, length);
            header("content-range", text);
            header("ETag", kind == CHANGED && exchanges > 1 ? "\"v2\"" : "\"v1\"");
            if (!imageprobe_planner_head(planner, 206)) { imageprobe_planner_end(planner, IMAGEPROBE_BODY_STOPPED); continue; }
        }
        int ended = IMAGEPROBE_BODY_COMPLETE;
        for (size_t at = first; at <= last && length > 0; at += 1000) {
            size_t run = last - at + 1 < 1000 ? last - at + 1 : 1000;
            int within = imageprobe_planner_received(planner, run);
            if (!imageprobe_planner_body(planner, bytes + at, run) || !within) { ended = IMAGEPROBE_BODY_STOPPED; break; }
        }
        imageprobe_planner_end(planner, ended);
    }
}

// Whether `bytes` is a PNG whose eXIf chunk comes after its first IDAT: over HTTP the planner
// stops at the image data, as browsers do (SPEC.md §6.1), so such a file's orientation is not
// the whole file's.
static int late_png_exif(const uint8_t *bytes, size_t length) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (length < 8 || memcmp(bytes, signature, 8) != 0) return 0;
    int seen_image_data = 0;
    for (size_t at = 8; length - at >= 8;) {
        size_t chunk = (size_t)bytes[at] << 24 | (size_t)bytes[at + 1] << 16 | (size_t)bytes[at + 2] << 8 | bytes[at + 3];
        if (memcmp(bytes + at + 4, "IDAT", 4) == 0) seen_image_data = 1;
        if (memcmp(bytes + at + 4, "eXIf", 4) == 0) return seen_image_data;
        if (chunk > length - at - 8 || length - at - 8 - chunk < 4) return 0;
        at += 12 + chunk;
    }
    return 0;
}

static int misuse(void) {
    int failures = 0;
    imageprobe_info info;
    imageprobe_plan_request request;
#define EXPECT(condition) do { if (!(condition)) { printf("FAIL misuse: %s\n", #condition); failures++; } } while (0)
    EXPECT(imageprobe_planner_init(NULL, NULL, "http://x/", 9) == IMAGEPROBE_ERROR_ARGUMENT);
    alignas(16) static unsigned char fresh[65536];
    EXPECT(imageprobe_planner_next(fresh, &request, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_head(fresh, 206) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_body(fresh, (const uint8_t *)"x", 1) == IMAGEPROBE_ERROR_ARGUMENT);
    // A scanner is not a planner, nor the other way round.
    imageprobe_init(scanner, NULL);
    EXPECT(imageprobe_planner_next(scanner, &request, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    imageprobe_planner_init(planner, NULL, "http://x/", 9);
    EXPECT(imageprobe_feed(planner, (const uint8_t *)"x", 1, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_next(planner, NULL, &info) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_body(planner, NULL, 5) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_end(planner, 99) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_size() <= sizeof planner);
#undef EXPECT
    return failures;
}

// A cache's revalidation (SPEC.md §6.1): a probe keeps the resource's validators; a second
// probe made conditional on them is answered 304 and ends with IMAGEPROBE_PLAN_NOT_MODIFIED.
static int revalidation(void) {
    int failures = 0;
    imageprobe_info info;
    imageprobe_plan_request request;
    char text[256];
#define EXPECT(condition) do { if (!(condition)) { printf("FAIL revalidation: %s\n", #condition); failures++; } } while (0)
    static const uint8_t png[] = {
        0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 30, 0, 0, 0, 20, 8, 6, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    int requests = 0;
    EXPECT(probe(png, sizeof png, RANGES, &info, &requests) == IMAGEPROBE_DONE && info.width == 30);
    EXPECT(imageprobe_planner_text(planner, IMAGEPROBE_TEXT_ENTITY_TAG, text, sizeof text) == 4 && strcmp(text, "\"v1\"") == 0);
    EXPECT(imageprobe_planner_text(planner, IMAGEPROBE_TEXT_LAST_MODIFIED, text, sizeof text) == 0);
    EXPECT(imageprobe_planner_freshness(planner) == -1);

    const char *url = "https://images.example/a";
    imageprobe_planner_init(planner, NULL, url, strlen(url));
    EXPECT(imageprobe_planner_revalidate(planner, "", 0, "", 0) == IMAGEPROBE_ERROR_ARGUMENT);
    EXPECT(imageprobe_planner_revalidate(planner, "\"v1\"", 4, NULL, 0) == 0);
    EXPECT(imageprobe_planner_next(planner, &request, &info) == IMAGEPROBE_PLAN_SEND);
    EXPECT(imageprobe_planner_revalidate(planner, "\"v2\"", 4, NULL, 0) == IMAGEPROBE_ERROR_ARGUMENT);
    imageprobe_planner_text(planner, IMAGEPROBE_TEXT_HEADERS, text, sizeof text);
    EXPECT(strstr(text, "If-None-Match: \"v1\"\r\n") != NULL);
    imageprobe_planner_received(planner, 90);
    header("ETag", "\"v1\"");
    header("Cache-Control", "max-age=60");
    EXPECT(imageprobe_planner_head(planner, 304) == 0);
    imageprobe_planner_end(planner, IMAGEPROBE_BODY_STOPPED);
    EXPECT(imageprobe_planner_next(planner, &request, &info) == IMAGEPROBE_PLAN_NOT_MODIFIED);
    EXPECT(imageprobe_planner_requests(planner) == 1 && imageprobe_planner_bytes_received(planner) == 90);
    EXPECT(imageprobe_planner_freshness(planner) == 60);
    EXPECT(imageprobe_planner_text(planner, IMAGEPROBE_TEXT_ENTITY_TAG, text, sizeof text) == 4);
#undef EXPECT
    return failures;
}

int main(int argc, char **argv) {
    int failures = misuse() + revalidation(), checks = 22;
    for (int index = 1; index < argc; index++) {
        FILE *file = fopen(argv[index], "rb");
        if (!file) { perror(argv[index]); return 2; }
        fseek(file, 0, SEEK_END);
        long size = ftell(file);
        fseek(file, 0, SEEK_SET);
        size_t length = (size_t)size;
        uint8_t *bytes = malloc(length ? length : 1);
        if (fread(bytes, 1, length, file) != length) return 2;
        fclose(file);

        // The scanner on the whole file, full mode, with its length: the reference.
        imageprobe_options options = {0};
        options.input_length = length;
        imageprobe_init(scanner, &options);
        imageprobe_info whole, ranged;
        int expected = imageprobe_feed(scanner, bytes, length, &whole);
        if (expected == IMAGEPROBE_NEED_MORE) expected = imageprobe_finish(scanner, &whole);
        if (late_png_exif(bytes, length)) whole.orientation = 0;

        for (int kind = RANGES; kind <= REDIRECT; kind++) {
            int requests = 0;
            int status = probe(bytes, length, (enum server)kind, &ranged, &requests);
            checks++;
            int answered = status == IMAGEPROBE_DONE && expected == IMAGEPROBE_DONE && !whole.is_partial && !ranged.is_partial;
            if (answered && (ranged.width != whole.width || ranged.height != whole.height || ranged.format != whole.format ||
                             ranged.orientation != whole.orientation)) {
                printf("FAIL %s (server %d): %s %lldx%lld, the scanner says %s %lldx%lld\n", argv[index], kind, ranged.format_name,
                       (long long)ranged.width, (long long)ranged.height, whole.format_name, (long long)whole.width, (long long)whole.height);
                failures++;
            }
            if (kind == CHANGED && status == IMAGEPROBE_DONE && requests > 1 && ranged.width == whole.width && expected != IMAGEPROBE_DONE) {
                printf("FAIL %s: mixed two versions\n", argv[index]);
                failures++;
            }
            if (status == -9) {
                printf("FAIL %s (server %d): no answer within 64 exchanges\n", argv[index], kind);
                failures++;
            }
            if (status == -8) {
                printf("FAIL %s: the redirect's Location was not followed to /b\n", argv[index]);
                failures++;
            }
        }
        free(bytes);
    }
    printf("planner: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
