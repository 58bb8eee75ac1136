// probe: the imageprobe C library from C. Prints one JSON line per file, the same as
// `imageprobe --json` (add --dimensions-only for that mode).
//
//   cc -Wall -Wextra -Werror -I .build/c/include Examples/c/probe.c .build/c/libimageprobe.a -o probe
//   ./probe [--dimensions-only] FILE...
//
// It reads the way the command does (SPEC.md §4), so the byte counts agree too: 64 KiB reads,
// feeding no more than the scanner asks for, jumping a pending skip of 64 KiB or more with
// lseek and passing shorter ones (and skipped bytes already read) with imageprobe_skip.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imageprobe.h"

enum { BUFFER_SIZE = 64 * 1024, SEEK_THRESHOLD = 64 * 1024 };

static void json_string(const char *text) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        default:
            if (*p < 0x20 || *p == 0x7F) printf("\\u%04x", *p);
            else putchar(*p);
        }
    }
    putchar('"');
}

// Rounds half away from zero, as Swift's rounded() does, without libm: the library needs
// nothing from it, so its example doesn't either (no -lm). From 2^52 on, doubles are whole.
static double round_half_away(double value) {
    if (!(value > -4503599627370496.0 && value < 4503599627370496.0)) return value;
    double whole = (double)(long long)value;  // towards zero
    if (value - whole >= 0.5) whole += 1;
    else if (whole - value >= 0.5) whole -= 1;
    return whole;
}

// A number as the command prints one: whole numbers without a fraction, others to 3 places.
static void json_number(double value) {
    if (!isfinite(value)) { fputs("null", stdout); return; }
    if (value > -1e15 && value < 1e15 && value == (double)(long long)value) { printf("%lld", (long long)value); return; }
    char text[64];
    snprintf(text, sizeof text, "%.3f", round_half_away(value * 1000) / 1000);
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == '0') text[--length] = 0;
    fputs(text, stdout);
}

static void json_nullable_flag(const char *name, int8_t value) {
    if (value >= 0) printf(",\"%s\":%s", name, value ? "true" : "false");
    else printf(",\"%s\":null", name);
}

static void json_flag(const char *name, int8_t value) {
    if (value >= 0) printf(",\"%s\":%s", name, value ? "true" : "false");
}

static void print_result(const char *path, int status, const imageprobe_info *info, int dimensions_only,
                         uint64_t read_count, uint64_t skipped_count) {
    fputs("{\"path\":", stdout);
    json_string(path);
    if (status == IMAGEPROBE_DONE) {
        fputs(",\"format\":", stdout); json_string(info->format_name);
        fputs(",\"mime\":", stdout); json_string(info->mime_type);
        printf(",\"width\":%lld,\"height\":%lld", (long long)info->width, (long long)info->height);
        if (info->orientation) printf(",\"orientation\":%d", info->orientation);
        else fputs(",\"orientation\":null", stdout);
        printf(",\"displayWidth\":%lld,\"displayHeight\":%lld", (long long)info->display_width, (long long)info->display_height);
        if (info->bit_depth >= 0) printf(",\"bitDepth\":%d", info->bit_depth);
        json_flag("alpha", info->has_alpha);
        json_flag("progressive", info->is_progressive);
        if (info->is_animated >= 0) json_flag("animated", info->is_animated);
        else if (!dimensions_only) fputs(",\"animated\":null", stdout);
        if (info->frame_count >= 0) printf(",\"frameCount\":%lld", (long long)info->frame_count);
        if (info->loop_count >= 0) printf(",\"loopCount\":%lld", (long long)info->loop_count);
        if (!isnan(info->duration_ms)) { fputs(",\"duration\":", stdout); json_number(info->duration_ms); }
        if (!isnan(info->playback_duration_ms)) { fputs(",\"playbackDuration\":", stdout); json_number(info->playback_duration_ms); }
        if (!dimensions_only) {
            // Full mode's extra facts: each present, null when the file can't tell.
            json_nullable_flag("hdr", info->hdr);
            json_nullable_flag("gainMap", info->gain_map);
            if (info->has_cicp)
                printf(",\"cicp\":[%u,%u,%u,%s]", info->cicp[0], info->cicp[1], info->cicp[2], info->cicp[3] ? "true" : "false");
            else
                fputs(",\"cicp\":null", stdout);
            json_nullable_flag("iccProfile", info->icc_profile);
            if (info->dpi_x > 0 && info->dpi_y > 0) printf(",\"dpi\":[%d,%d]", (int)info->dpi_x, (int)info->dpi_y);
            else fputs(",\"dpi\":null", stdout);
            json_nullable_flag("interlaced", info->interlaced);
            json_nullable_flag("motionPhoto", info->motion_photo);
        }
        if (info->eps_preview[0]) { fputs(",\"preview\":", stdout); json_string(info->eps_preview); }
        if (info->is_partial) { fputs(",\"partial\":true,\"partialReason\":", stdout); json_string(info->error); }
    } else {
        fputs(",\"error\":", stdout); json_string(info->error);
        fputs(",\"message\":", stdout); json_string(info->message);
        if (info->detected_format) { fputs(",\"detectedFormat\":", stdout); json_string(info->detected_format_name); }
    }
    printf(",\"bytesRead\":%llu", (unsigned long long)read_count);
    if (skipped_count > 0) printf(",\"bytesSkipped\":%llu", (unsigned long long)skipped_count);
    fputs("}\n", stdout);
}

static void print_io_error(const char *path, const char *message) {
    fputs("{\"path\":", stdout);
    json_string(path);
    fputs(",\"error\":\"io\",\"message\":", stdout);
    json_string(message);
    fputs(",\"bytesRead\":0}\n", stdout);
}

// Returns 0 for an image, 1 for anything else, 3 for a file that can't be read.
static int probe(const char *path, int dimensions_only) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (descriptor < 0) {
        char message[256];
        snprintf(message, sizeof message, "cannot open: %s", strerror(errno));
        print_io_error(path, message);
        return 3;
    }
    struct stat facts;
    if (fstat(descriptor, &facts) != 0 || !S_ISREG(facts.st_mode)) {
        print_io_error(path, S_ISDIR(facts.st_mode) ? "is a directory (use -r to probe the files in it)"
                                                    : "not a regular file (use - to read a pipe or device from standard input)");
        close(descriptor);
        return 3;
    }
    fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);

    // The library allocates nothing: the scanner lives here, on the stack.
    alignas(16) unsigned char scanner[1024];
    if (imageprobe_scanner_size() > sizeof scanner || imageprobe_scanner_align() > 16) return 3;
    imageprobe_options options = {0};
    options.mode = dimensions_only ? IMAGEPROBE_MODE_DIMENSIONS_ONLY : IMAGEPROBE_MODE_FULL;
    options.input_length = facts.st_size > 0 ? (uint64_t)facts.st_size : 0;
    imageprobe_init(scanner, &options);

    static uint8_t buffer[BUFFER_SIZE];
    size_t start = 0, end = 0;
    uint64_t skipped_after_reading = 0;
    imageprobe_info info;
    int status = imageprobe_feed(scanner, NULL, 0, &info);
    while (status == IMAGEPROBE_NEED_MORE) {
        uint64_t pending = imageprobe_pending_skip(scanner);
        if (pending > 0 && start < end) {
            uint64_t passed = imageprobe_skip(scanner, pending < end - start ? pending : end - start);
            skipped_after_reading += passed;
            start += passed;
            status = imageprobe_feed(scanner, NULL, 0, &info);
            continue;
        }
        if (pending >= SEEK_THRESHOLD && start == end) {
            if (pending > (uint64_t)INT64_MAX || lseek(descriptor, (off_t)pending, SEEK_CUR) < 0) {
                // Past any offset a file can have: the input ends before the header does.
                imageprobe_skip(scanner, pending);
                status = imageprobe_finish(scanner, &info);
                break;
            }
            imageprobe_skip(scanner, pending);
            status = imageprobe_feed(scanner, NULL, 0, &info);
            continue;
        }
        if (start == end) {
            ssize_t count = read(descriptor, buffer, sizeof buffer);
            if (count < 0 && errno == EINTR) continue;
            if (count < 0) {
                char message[256];
                snprintf(message, sizeof message, "cannot read: %s", strerror(errno));
                print_io_error(path, message);
                close(descriptor);
                return 3;
            }
            if (count == 0) {
                status = imageprobe_finish(scanner, &info);
                break;
            }
            start = 0;
            end = (size_t)count;
        }
        size_t take = end - start;
        if (info.needed < take) take = (size_t)info.needed;
        status = imageprobe_feed(scanner, buffer + start, take, &info);
        start += take;
    }
    close(descriptor);
    print_result(path, status, &info, dimensions_only, info.bytes_read + skipped_after_reading,
                 info.bytes_skipped - skipped_after_reading);
    return status == IMAGEPROBE_DONE ? 0 : 1;
}

int main(int argc, char **argv) {
    int dimensions_only = 0, worst = 0;
    for (int index = 1; index < argc; index++) {
        if (strcmp(argv[index], "--dimensions-only") == 0) {
            dimensions_only = 1;
            continue;
        }
        int result = probe(argv[index], dimensions_only);
        if (result > worst) worst = result;
    }
    return worst;
}
