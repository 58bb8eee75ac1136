/*
 * imageprobe.h: an image's format, pixel size and orientation from its first bytes.
 *
 * A push scanner: hand it the bytes of a file or a download in chunks of any size, and it
 * answers as soon as it can. The answer is identical however the input is split. The library
 * allocates nothing: the caller owns the scanner's memory (imageprobe_scanner_size() bytes,
 * aligned to imageprobe_scanner_align()), and every string in an answer is copied into the
 * caller's imageprobe_info. It calls no I/O and keeps no global state, so any number of
 * scanners may run on any threads, one thread per scanner at a time.
 *
 *     _Alignas(16) unsigned char scanner[1024];     // or malloc(imageprobe_scanner_size())
 *     imageprobe_info info;
 *     imageprobe_init(scanner, NULL);
 *     int status = IMAGEPROBE_NEED_MORE;
 *     ssize_t count;
 *     while (status == IMAGEPROBE_NEED_MORE && (count = read(fd, buffer, sizeof buffer)) > 0)
 *         status = imageprobe_feed(scanner, buffer, (size_t)count, &info);
 *     if (status == IMAGEPROBE_NEED_MORE) status = imageprobe_finish(scanner, &info);
 *     if (status == IMAGEPROBE_DONE) printf("%s %lldx%lld\n", info.format_name,
 *                                           (long long)info.width, (long long)info.height);
 *
 * Link with libimageprobe.a (or -limageprobe). The library is the ImageProbe Swift package's
 * core, built in Embedded Swift. What it needs from the platform, in every build (SPEC.md §7):
 *   - libimageprobe.a and libimageprobe.so: memset, memcpy, memmove and memcmp from the C
 *     library, nothing else (the allocator and the random source Embedded Swift's runtime
 *     refers to are the library's own, local, never called; no stack protector);
 *   - imageprobe.wasm: nothing (no imports).
 * It exports only the functions below. The contract is the package's SPEC.md §1 and §7; this
 * header mirrors it.
 */
#ifndef IMAGEPROBE_H
#define IMAGEPROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What imageprobe_feed and imageprobe_finish return. */
enum {
    /* More input is needed: at least info->needed more bytes. Not an error. */
    IMAGEPROBE_NEED_MORE = 0,
    /* The answer is in the imageprobe_info. Final: later calls return it again. */
    IMAGEPROBE_DONE = 1,
    /* Not an image the scanner reads, or a broken one: info->error and info->message say
       which. Final. */
    IMAGEPROBE_UNSUPPORTED = 2,
    /* A call the contract below doesn't allow: a NULL or misaligned scanner, one that
       imageprobe_init didn't set up, a NULL `out`, or NULL bytes with a non-zero length.
       Nothing was read or changed; info->error is "argument" when `out` isn't NULL. */
    IMAGEPROBE_ERROR_ARGUMENT = -1,
};

/* How much to learn (imageprobe_options.mode). */
enum {
    /* Everything the header gives: size, orientation, depth, alpha, animation... (default) */
    IMAGEPROBE_MODE_FULL = 0,
    /* Stop as soon as the width and height are known: the fewest bytes. */
    IMAGEPROBE_MODE_DIMENSIONS_ONLY = 1,
    /* Walk every frame of an animation for frame count, loop count and durations. */
    IMAGEPROBE_MODE_ANIMATION = 2,
};

/* Formats (imageprobe_info.format). Stable numbers; 0 is none. */
enum {
    /* Generated from Sources/ImageProbe/Registry/formats.tsv by Scripts/registry.py. */
    IMAGEPROBE_FORMAT_NONE = 0,
    IMAGEPROBE_FORMAT_JPEG = 1,
    IMAGEPROBE_FORMAT_PNG = 2,
    IMAGEPROBE_FORMAT_GIF = 3,
    IMAGEPROBE_FORMAT_BMP = 4,
    IMAGEPROBE_FORMAT_WEBP = 5,
    IMAGEPROBE_FORMAT_TIFF = 6,
    IMAGEPROBE_FORMAT_HEIF = 7,
    IMAGEPROBE_FORMAT_AVIF = 8,
    IMAGEPROBE_FORMAT_JXL = 9,
    IMAGEPROBE_FORMAT_JP2 = 10,
    IMAGEPROBE_FORMAT_J2K = 11,
    IMAGEPROBE_FORMAT_ICO = 12,
    IMAGEPROBE_FORMAT_CUR = 13,
    IMAGEPROBE_FORMAT_PSD = 14,
    IMAGEPROBE_FORMAT_TGA = 15,
    IMAGEPROBE_FORMAT_PNM = 16,
    IMAGEPROBE_FORMAT_PFM = 17,
    IMAGEPROBE_FORMAT_QOI = 18,
    IMAGEPROBE_FORMAT_SVG = 19,
    IMAGEPROBE_FORMAT_DDS = 20,
    IMAGEPROBE_FORMAT_KTX = 21,
    IMAGEPROBE_FORMAT_KTX2 = 22,
    IMAGEPROBE_FORMAT_ICNS = 23,
    IMAGEPROBE_FORMAT_EXR = 24,
    IMAGEPROBE_FORMAT_HDR = 25,
    IMAGEPROBE_FORMAT_PCX = 26,
    IMAGEPROBE_FORMAT_SGI = 27,
    IMAGEPROBE_FORMAT_SUN = 28,
    IMAGEPROBE_FORMAT_XBM = 29,
    IMAGEPROBE_FORMAT_EPS = 30,
    IMAGEPROBE_FORMAT_XPM = 31,
    IMAGEPROBE_FORMAT_FITS = 32,
    IMAGEPROBE_FORMAT_DCX = 33,
    IMAGEPROBE_FORMAT_MSP = 34,
    IMAGEPROBE_FORMAT_BLP = 35,
    IMAGEPROBE_FORMAT_PVR = 36,
    IMAGEPROBE_FORMAT_PKM = 37,
    IMAGEPROBE_FORMAT_ASTC = 38,
    IMAGEPROBE_FORMAT_FARBFELD = 39,
    IMAGEPROBE_FORMAT_VTF = 40,
    IMAGEPROBE_FORMAT_ILBM = 41,
    IMAGEPROBE_FORMAT_ASEPRITE = 42,
    /* End of the generated formats. */
};

/* Scanner options. Zero-filled means the defaults (SPEC.md §1.5). */
typedef struct imageprobe_options {
    int32_t mode;              /* IMAGEPROBE_MODE_* */
    uint64_t max_bytes;        /* give up after this many bytes without an answer; 0: 16 MiB */
    uint64_t input_length;     /* the whole input's length when known (a file's size); 0: unknown */
    uint32_t max_width;        /* wider images fail with "limitExceeded"; 0: 2^30 */
    uint32_t max_height;       /* taller images likewise; 0: 2^30 */
    uint32_t max_entries;      /* entries examined in one structure, frames walked; 0: 65,536 */
    uint32_t max_depth;        /* boxes nested; 0: 16 (at most 65,535) */
    uint64_t max_pixels;       /* width x height (x frames in animation mode) above this is
                                  refused with "tooManyPixels", the size reported; 0: no limit */
} imageprobe_options;

/* An answer. Unknown numbers are -1 (and NaN for durations); strings are NUL-terminated
   and empty when absent. */
typedef struct imageprobe_info {
    uint64_t needed;                 /* IMAGEPROBE_NEED_MORE: at least this many more bytes */
    uint64_t bytes_read;             /* bytes passed to imageprobe_feed so far */
    uint64_t bytes_skipped;          /* bytes passed over with imageprobe_skip so far */

    int32_t format;                  /* IMAGEPROBE_FORMAT_* */
    char format_name[16];            /* "jpeg", "png", ... (SPEC.md §3) */
    char mime_type[48];              /* "image/jpeg", ... */
    int64_t width, height;           /* the stored size, in pixels */
    int64_t display_width;           /* after a HEIF clean aperture and the orientation */
    int64_t display_height;
    int32_t orientation;             /* EXIF orientation 1-8; 0 when the file records none */
    int32_t bit_depth;               /* bits per sample (or per pixel, per format); -1 */
    int8_t has_alpha;                /* 1, 0, or -1 unknown */
    int8_t is_progressive;           /* 1, 0, or -1 */
    int8_t is_animated;              /* 1, 0, or -1 */
    int8_t is_partial;               /* 1 when a limit cut the scan short after the size was known */
    int64_t frame_count;             /* -1 unknown */
    int64_t loop_count;              /* as stored, 0 forever; -1 unknown */
    double duration_ms;              /* animation mode: the sum of the declared delays; NaN */
    double playback_duration_ms;     /* as browsers play it (delays under 11 ms count 100); NaN */
    char eps_preview[8];             /* a DOS EPS file's preview: "tiff", "wmf" or "" */
    /* Full mode's extra facts (SPEC.md §2): 1, 0, or -1 when the file can't tell. */
    int8_t hdr;                      /* a PQ or HLG transfer, or a gain map */
    int8_t gain_map;                 /* a gain map accompanies the image */
    int8_t icc_profile;              /* an ICC profile is embedded */
    int8_t interlaced;               /* PNG Adam7, a GIF's first image interlaced */
    int8_t motion_photo;             /* an embedded video follows the image */
    uint8_t has_cicp;                /* 1 when cicp holds the file's CICP (ITU-T H.273) */
    uint8_t cicp[4];                 /* colour primaries, transfer, matrix coefficients, full range (0/1) */
    int32_t dpi_x, dpi_y;            /* dots per inch; 0 when the file states none */

    /* IMAGEPROBE_UNSUPPORTED: why (with "tooManyPixels", the refused image's format and size
       are filled in above); IMAGEPROBE_DONE with is_partial: the limit that cut it. */
    char error[24];                  /* "unknownFormat", "malformed", "truncated",
                                        "limitExceeded", "unsupportedFeature" */
    char message[128];               /* a sentence for people */
    int32_t detected_format;         /* the format recognised before the failure; 0 none */
    char detected_format_name[16];

    /* The range planner's answers (imageprobe_planner_next) only; empty and 0 otherwise. */
    char fetch_error[24];            /* "httpStatus", "badContentRange", "resourceChanged", "scan", ... */
    int32_t http_status;             /* the status that caused the failure, or 0 */
} imageprobe_info;

/* The scanner's size and alignment: give imageprobe_init that much memory. */
size_t imageprobe_scanner_size(void);
size_t imageprobe_scanner_align(void);

/* Starts a scan in `scanner` (imageprobe_scanner_size() bytes, aligned to
   imageprobe_scanner_align()): IMAGEPROBE_NEED_MORE, or IMAGEPROBE_ERROR_ARGUMENT for a NULL
   or misaligned pointer. `options` may be NULL. The memory starts with a magic word that the
   other calls check, so a scanner never initialised is refused, not read. Nothing is
   allocated; to end a scan, simply stop using the memory. */
int imageprobe_init(void *scanner, const imageprobe_options *options);

/* Consumes `length` bytes (bytes may be NULL when length is 0) and fills `out`. Returns
   IMAGEPROBE_NEED_MORE, IMAGEPROBE_DONE or IMAGEPROBE_UNSUPPORTED (or IMAGEPROBE_ERROR_ARGUMENT). Feed at most info.needed
   bytes at a time to see every chance to skip (imageprobe_pending_skip); feeding more is
   always correct. Feeding 0 bytes returns the current status without changing it. */
int imageprobe_feed(void *scanner, const uint8_t *bytes, size_t length, imageprobe_info *out);

/* The input has ended: the final answer (IMAGEPROBE_UNSUPPORTED with "truncated" when it
   ended inside the header, or a partial IMAGEPROBE_DONE). */
int imageprobe_finish(void *scanner, imageprobe_info *out);

/* How many of the next bytes the scanner doesn't need. A reader that can seek jumps them
   and calls imageprobe_skip; feeding them instead is always correct. 0 for a scanner
   imageprobe_init didn't set up. */
uint64_t imageprobe_pending_skip(const void *scanner);

/* Passes over up to `count` bytes (at most the pending skip) without reading them. Returns
   how many were passed (0 for a scanner imageprobe_init didn't set up). */
uint64_t imageprobe_skip(void *scanner, uint64_t count);

/* ---------------------------------------------------------------------------------------
 * The URL probe (SPEC.md §6.1) without I/O: the whole HTTP exchange's rules (which Range
 * request to send and where, If-Range, redirects, budgets, the head's limits, chunked framing,
 * the error code of each failure), driven by any transport:
 *
 *     imageprobe_planner_init(planner, NULL, url, strlen(url));
 *     for (;;) switch (imageprobe_planner_next(planner, &request, &info)) {
 *     case IMAGEPROBE_PLAN_SEND:
 *         // First wait request.wait_seconds (a 429 or 503's Retry-After), if any.
 *         // Over a socket: connect to imageprobe_planner_text(IMAGEPROBE_TEXT_HOST) and
 *         // request.port (TLS when request.secure), checking each address with
 *         // imageprobe_address_check under a public-only policy; send the
 *         // IMAGEPROBE_TEXT_REQUEST_HEAD text, a User-Agent line and a blank line; then hand
 *         // every byte read to imageprobe_planner_wire until it says the exchange ended, and
 *         // call imageprobe_planner_wire_closed if the peer closes first.
 *         // Over an HTTP stack: GET IMAGEPROBE_TEXT_URL with the IMAGEPROBE_TEXT_HEADERS lines,
 *         // then imageprobe_planner_received for every byte off the connection, the head
 *         // with imageprobe_planner_head_line per line (or _header per field and _head),
 *         // _body while it returns 1, and _end or _fail.
 *         // A deadline passed, or another failure: imageprobe_planner_fail(planner, class).
 *     case IMAGEPROBE_DONE:           // info has the answer (partial when a limit cut it)
 *     case IMAGEPROBE_UNSUPPORTED:    // info.fetch_error, info.message (and info.error, the
 *                                     // scanner's code, for "scan")
 *     case IMAGEPROBE_PLAN_NOT_MODIFIED:  // after imageprobe_planner_revalidate: the answer
 *                                     // the caller holds stands (304 Not Modified)
 *     }
 *
 * Memory, as for the scanner: the caller's, imageprobe_planner_size() bytes at
 * imageprobe_scanner_align(), never freed.
 * ------------------------------------------------------------------------------------- */

enum {
    IMAGEPROBE_PLAN_SEND = 3,        /* send the request in `request` */
    IMAGEPROBE_PLAN_NOT_MODIFIED = 4,/* the revalidated version is current: the held answer stands */
};

/* imageprobe_plan_request.if_range: which validator of the resource's first 206 response the
   header lines send back as If-Range. */
enum { IMAGEPROBE_IF_RANGE_NONE = 0, IMAGEPROBE_IF_RANGE_ETAG = 1, IMAGEPROBE_IF_RANGE_LAST_MODIFIED = 2 };

/* imageprobe_planner_end: how the body ended. */
enum { IMAGEPROBE_BODY_COMPLETE = 0, IMAGEPROBE_BODY_STOPPED = 1, IMAGEPROBE_BODY_CLOSED = 2 };

/* imageprobe_planner_fail: the class of the transport's failure; the planner gives each its
   error code: "timeout", "limitExceeded" (both a partial answer once the size is known),
   "connection" (no connection, or it closed before a head), "invalidResponse" (the driver's
   HTTP parser refused the bytes), "forbiddenAddress", "cancelled". */
enum {
    IMAGEPROBE_FAIL_TIMEOUT = 0, IMAGEPROBE_FAIL_LIMIT = 1, IMAGEPROBE_FAIL_CONNECTION = 2,
    IMAGEPROBE_FAIL_INVALID_RESPONSE = 3, IMAGEPROBE_FAIL_FORBIDDEN_ADDRESS = 4, IMAGEPROBE_FAIL_CANCELLED = 5,
};

/* imageprobe_planner_text: which text of the request to send. */
enum {
    IMAGEPROBE_TEXT_URL = 0,           /* the absolute URL */
    IMAGEPROBE_TEXT_HEADERS = 1,       /* "Range: ...\r\n", If-Range, Accept-Encoding lines */
    IMAGEPROBE_TEXT_REQUEST_HEAD = 2,  /* "GET target HTTP/1.1\r\nHost: ...\r\n" and the header lines */
    IMAGEPROBE_TEXT_HOST = 3,          /* the host to resolve (an IPv6 literal without brackets) */
    IMAGEPROBE_TEXT_USER_AGENT = 4,    /* "ImageProbe/VERSION" (any planner, or NULL) */
    /* Once settled (IMAGEPROBE_DONE or IMAGEPROBE_PLAN_NOT_MODIFIED): the resource's
       validators, as its first response (or the 304) gave them, empty when absent. A cache
       keeps them beside the answer for imageprobe_planner_revalidate. */
    IMAGEPROBE_TEXT_ENTITY_TAG = 5,    /* its ETag */
    IMAGEPROBE_TEXT_LAST_MODIFIED = 6, /* its Last-Modified */
};

/* imageprobe_planner_wire: what to do next. */
enum { IMAGEPROBE_WIRE_MORE = 0, IMAGEPROBE_WIRE_ENDED = 1, IMAGEPROBE_WIRE_ENDED_REUSABLE = 2 };

/* The strategy's knobs. imageprobe_planner_defaults fills them with SPEC.md §6.1's values;
   a zero is a zero (0 redirects, no growth). */
typedef struct imageprobe_planner_options {
    imageprobe_options scan;         /* the scanner's mode and limits (input_length ignored) */
    uint64_t max_bytes;              /* every byte received, heads and framing too: 16 MiB */
    uint32_t max_requests;           /* 32 */
    uint32_t max_metadata_requests;  /* once the size is known: 16 */
    uint32_t max_redirects;          /* 5 (at most 15) */
    uint32_t request_growth;         /* 2 */
    uint64_t initial_range;          /* 1024 */
    uint64_t minimum_request;        /* 1024 */
    uint64_t jump_threshold;         /* 16384 */
} imageprobe_planner_options;

typedef struct imageprobe_plan_request {
    uint64_t first, last;            /* Range: bytes=first-last */
    int32_t if_range;                /* IMAGEPROBE_IF_RANGE_* */
    int32_t port;                    /* the URL's port (80 or 443 when it names none) */
    int32_t secure;                  /* 1 for https */
    int32_t wait_seconds;            /* wait this long before sending: a 429 or 503's Retry-After
                                        (at most 10 s) that this request retries; else 0 */
} imageprobe_plan_request;

void imageprobe_planner_defaults(imageprobe_planner_options *options);
size_t imageprobe_planner_size(void);

/* Starts a probe of `url` (UTF-8, `url_length` bytes) in `planner`; `options` may be NULL (the
   defaults). A URL that isn't http or https fails at the first imageprobe_planner_next
   ("unsupportedURL"). IMAGEPROBE_NEED_MORE, or IMAGEPROBE_ERROR_ARGUMENT. */
int imageprobe_planner_init(void *planner, const imageprobe_planner_options *options, const char *url, size_t url_length);

/* The next step: IMAGEPROBE_PLAN_SEND (`request` filled), IMAGEPROBE_DONE or
   IMAGEPROBE_UNSUPPORTED (`info` filled; final: returned again), or IMAGEPROBE_PLAN_NOT_MODIFIED
   after imageprobe_planner_revalidate. */
int imageprobe_planner_next(void *planner, imageprobe_plan_request *request, imageprobe_info *info);

/* Makes the probe's first request conditional on the version the caller holds an answer for
   (SPEC.md §6.1, "Revalidation"): If-None-Match with `entity_tag`, If-Modified-Since with
   `last_modified`, as a cache kept them (IMAGEPROBE_TEXT_ENTITY_TAG, _LAST_MODIFIED); either
   may be empty. A 304 then ends the probe with IMAGEPROBE_PLAN_NOT_MODIFIED. Call it before
   the first imageprobe_planner_next. 0, or IMAGEPROBE_ERROR_ARGUMENT (called later, both
   empty, a text longer than 256 bytes or with a control character). */
int imageprobe_planner_revalidate(void *planner, const char *entity_tag, size_t entity_tag_length,
                                  const char *last_modified, size_t last_modified_length);

/* Once settled: how long, in seconds, the resource's response said it may be used without
   asking again (Cache-Control max-age; 0 for no-cache or no-store); -1 when it said neither. */
int64_t imageprobe_planner_freshness(const void *planner);

/* A text of the request to send (IMAGEPROBE_TEXT_*) into `out`, NUL-terminated when there is
   room; returns its full length (copy again with more room when it is >= capacity). */
size_t imageprobe_planner_text(const void *planner, int32_t which, char *out, size_t capacity);

/* The raw response as read from the socket: returns IMAGEPROBE_WIRE_MORE (read on and call
   again), or IMAGEPROBE_WIRE_ENDED / IMAGEPROBE_WIRE_ENDED_REUSABLE (the exchange is over;
   the connection may carry the next request only when REUSABLE). */
int imageprobe_planner_wire(void *planner, const uint8_t *bytes, size_t length);
/* The peer closed the connection. */
int imageprobe_planner_wire_closed(void *planner);

/* One line of the response head from an HTTP stack (status line, field line, blank line, its
   line ending included): returns 1 to go on, 0 to stop (then end or fail the exchange). */
int imageprobe_planner_head_line(void *planner, const uint8_t *bytes, size_t length);

/* One header field of the response in flight (any case; value trimmed). */
int imageprobe_planner_header(void *planner, const char *name, size_t name_length, const char *value, size_t value_length);

/* The response head is complete: returns 1 to read the body, 0 not to (then stop the
   transfer and call imageprobe_planner_end with IMAGEPROBE_BODY_STOPPED). */
int imageprobe_planner_head(void *planner, int32_t status);

/* A run of body bytes: returns 1 to go on reading, 0 to stop. */
int imageprobe_planner_body(void *planner, const uint8_t *bytes, size_t length);

/* Bytes received off the connection (head, framing, body): returns 1 while within max_bytes,
   0 past it (stop, then end or fail with IMAGEPROBE_FAIL_LIMIT). */
int imageprobe_planner_received(void *planner, uint64_t count);

/* The exchange ended (IMAGEPROBE_BODY_*), or failed (IMAGEPROBE_FAIL_*). */
int imageprobe_planner_end(void *planner, int32_t how);
int imageprobe_planner_fail(void *planner, int32_t what);

/* 1 when the rest of the response in flight is short enough to read through (and discard) for
   its connection's sake. */
int imageprobe_planner_drainable(const void *planner);

/* Every byte reported with imageprobe_planner_received, and the requests sent. */
uint64_t imageprobe_planner_bytes_received(const void *planner);
uint32_t imageprobe_planner_requests(const void *planner);

/* ---------------------------------------------------------------------------------------
 * The address policy (SPEC.md §6.4), one copy for every front end.
 * ------------------------------------------------------------------------------------- */

/* The address a numeric host spells, as a resolver reads it (127.1, 0x7f.1, 2130706433,
   0177.0.0.1, ::ffff:127.0.0.1, [::1], fe80::1%eth0): 4 or 16 bytes into `out` (16 bytes of
   room), returns 4 or 16; 0 when `text` is not a numeric address. */
int imageprobe_address_parse(const char *text, size_t length, uint8_t *out);

/* Whether a probe under the public-only policy may connect to `address` (4 or 16 bytes):
   0 when allowed, else the refused block's class (> 0) with the sentence saying why in
   `message` (NUL-terminated, cut to `capacity`). `allow`: exceptions, CIDR blocks separated by
   commas or spaces ("10.8.0.0/16, fd00::/8"); IMAGEPROBE_ERROR_ARGUMENT when one isn't. */
int imageprobe_address_check(const uint8_t *address, size_t length, const char *allow, size_t allow_length,
                             char *message, size_t capacity);

/* For bindings that don't read this header (JavaScript, Python's ctypes): the offset of each
   field of a struct, in the order the struct declares them, and the struct's size after the
   last (0 past that). */
uint32_t imageprobe_info_layout(uint32_t index);
uint32_t imageprobe_options_layout(uint32_t index);
uint32_t imageprobe_planner_options_layout(uint32_t index);
uint32_t imageprobe_plan_request_layout(uint32_t index);

#ifdef __cplusplus
}
#endif

#endif /* IMAGEPROBE_H */
