// What the C library (libimageprobe.a, .so, imageprobe.wasm) needs besides the scanner,
// compiled only by Scripts/build-c.sh (-DIMAGEPROBE_EMBEDDED_LIBRARY); empty in the package's
// own build: the layouts of the header's structs, for bindings that don't read C headers
// (JavaScript, Python's ctypes), and, natively, the runtime's allocator and random source.
//
// Embedded Swift's runtime refers to an allocator and to a random source (Hasher's seed); the
// scanner calls neither. These definitions end up local to the library (build-c.sh keeps only
// the imageprobe_ functions global), so it needs nothing from the C library but memset,
// memcpy, memmove and memcmp: no glibc 2.36 for arc4random_buf, no allocator.
#if defined(IMAGEPROBE_EMBEDDED_LIBRARY)
#include <stddef.h>
#include <stdint.h>
#include "imageprobe.h"

// Offsets of the header's structs' fields, so the JavaScript reads and writes them as C lays
// them out: field `index` in the order listed, or the struct's size after the last.
#define INFO_FIELDS(X) X(needed) X(bytes_read) X(bytes_skipped) X(format) X(format_name) X(mime_type) \
    X(width) X(height) X(display_width) X(display_height) X(orientation) X(bit_depth) X(has_alpha) \
    X(is_progressive) X(is_animated) X(is_partial) X(frame_count) X(loop_count) X(duration_ms) \
    X(playback_duration_ms) X(eps_preview) X(hdr) X(gain_map) X(icc_profile) X(interlaced) X(motion_photo) \
    X(has_cicp) X(cicp) X(dpi_x) X(dpi_y) X(error) X(message) X(detected_format) X(detected_format_name) \
    X(fetch_error) X(http_status)
#define OPTIONS_FIELDS(X) X(mode) X(max_bytes) X(input_length) X(max_width) X(max_height) X(max_entries) X(max_depth) \
    X(max_pixels)
#define PLANNER_FIELDS(X) X(scan) X(max_bytes) X(max_requests) X(max_metadata_requests) X(max_redirects) \
    X(request_growth) X(initial_range) X(minimum_request) X(jump_threshold)
#define REQUEST_FIELDS(X) X(first) X(last) X(if_range) X(port) X(secure) X(wait_seconds)
#define INFO_OFFSET(name) offsetof(imageprobe_info, name),
#define OPTIONS_OFFSET(name) offsetof(imageprobe_options, name),
#define PLANNER_OFFSET(name) offsetof(imageprobe_planner_options, name),
#define REQUEST_OFFSET(name) offsetof(imageprobe_plan_request, name),
static const uint32_t info_offsets[] = { INFO_FIELDS(INFO_OFFSET) sizeof(imageprobe_info) };
static const uint32_t options_offsets[] = { OPTIONS_FIELDS(OPTIONS_OFFSET) sizeof(imageprobe_options) };
static const uint32_t planner_offsets[] = { PLANNER_FIELDS(PLANNER_OFFSET) sizeof(imageprobe_planner_options) };
static const uint32_t request_offsets[] = { REQUEST_FIELDS(REQUEST_OFFSET) sizeof(imageprobe_plan_request) };
#define LAYOUT(table, index) (index < sizeof table / sizeof table[0] ? table[index] : 0)

uint32_t imageprobe_info_layout(uint32_t index) { return LAYOUT(info_offsets, index); }
uint32_t imageprobe_options_layout(uint32_t index) { return LAYOUT(options_offsets, index); }
uint32_t imageprobe_planner_options_layout(uint32_t index) { return LAYOUT(planner_offsets, index); }
uint32_t imageprobe_plan_request_layout(uint32_t index) { return LAYOUT(request_offsets, index); }

#if !defined(__wasm__)
#include <string.h>

void *malloc(size_t size) { (void)size; return NULL; }
void free(void *pointer) { (void)pointer; }
int posix_memalign(void **result, size_t alignment, size_t size) {
    (void)alignment; (void)size; *result = NULL; return 12; /* ENOMEM */
}
// A fixed seed is enough: the scanner hashes nothing.
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5A, count); }
#endif
#else
typedef int imageprobe_library_translation_unit_is_not_empty;
#endif
