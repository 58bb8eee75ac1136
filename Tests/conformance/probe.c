// The C planner's conformance driver: one URL probed over plain sockets, the core doing all of
// HTTP (imageprobe_planner_wire). A transport and nothing else: connect (each address checked
// with imageprobe_address_check under --public-only), send the planner's request head, hand
// every byte read to the planner, obey its end, enforce the deadline. http only (no TLS).
//   cc -std=c11 -I .build/c/include Tests/conformance/probe.c .build/c/libimageprobe.a -o probe
//   ./probe URL [--max-bytes N] [--timeout SECONDS] [--public-only] [--allow CIDRS]
// prints one JSON line: {"format":...} or {"error":...,"fetchError":...}, with bytesTransferred.
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "imageprobe.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int wait_for(int fd, short events, double deadline) {
    double left = deadline - now();
    if (left <= 0) return 0;
    struct pollfd p = { .fd = fd, .events = events };
    return poll(&p, 1, (int)(left * 1000) + 1) > 0;
}

// Connects to the first allowed address of host:port; -1 with `failure` set otherwise.
static int connect_to(const char *host, int port, int public_only, const char *allow, double deadline, int *failure) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *list = NULL;
    *failure = IMAGEPROBE_FAIL_CONNECTION;
    if (getaddrinfo(host, service, &hints, &list) != 0) return -1;
    int refused = 0, fd = -1;
    for (struct addrinfo *a = list; a && fd < 0; a = a->ai_next) {
        const uint8_t *bytes = a->ai_family == AF_INET ? (const uint8_t *)&((struct sockaddr_in *)a->ai_addr)->sin_addr
                                                       : (const uint8_t *)&((struct sockaddr_in6 *)a->ai_addr)->sin6_addr;
        char why[256];
        if (public_only && imageprobe_address_check(bytes, a->ai_family == AF_INET ? 4 : 16, allow, strlen(allow), why, sizeof why) != 0) {
            refused = 1;
            continue;
        }
        int s = socket(a->ai_family, SOCK_STREAM, 0);
        if (s < 0) continue;
        fcntl(s, F_SETFL, O_NONBLOCK);
        if (connect(s, a->ai_addr, a->ai_addrlen) == 0 || (errno == EINPROGRESS && wait_for(s, POLLOUT, deadline))) {
            int error = 0;
            socklen_t size = sizeof error;
            getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &size);
            if (error == 0) { fd = s; break; }
        } else if (now() >= deadline) {
            *failure = IMAGEPROBE_FAIL_TIMEOUT;
        }
        close(s);
    }
    freeaddrinfo(list);
    if (fd < 0 && refused && *failure != IMAGEPROBE_FAIL_TIMEOUT) *failure = IMAGEPROBE_FAIL_FORBIDDEN_ADDRESS;
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: probe URL [--max-bytes N] [--timeout S] [--public-only] [--allow CIDRS]\n"); return 2; }
    imageprobe_planner_options options;
    imageprobe_planner_defaults(&options);
    double timeout = 10;
    int public_only = 0;
    const char *allow = "";
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) options.max_bytes = options.scan.max_bytes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "--public-only")) public_only = 1;
        else if (!strcmp(argv[i], "--allow") && i + 1 < argc) allow = argv[++i];
    }
    size_t align = imageprobe_scanner_align() < 16 ? 16 : imageprobe_scanner_align();
    void *planner = aligned_alloc(align, (imageprobe_planner_size() + align - 1) / align * align);
    imageprobe_planner_init(planner, &options, argv[1], strlen(argv[1]));
    imageprobe_plan_request request;
    imageprobe_info info;
    static char head[16384], host[4096], agent[64], connected[4096 + 16];
    static uint8_t buffer[16384];
    int fd = -1;
    double probe_deadline = now() + (3 * timeout > 30 ? 3 * timeout : 30);
    int step;
    imageprobe_planner_text(NULL, IMAGEPROBE_TEXT_USER_AGENT, agent, sizeof agent);
    while ((step = imageprobe_planner_next(planner, &request, &info)) == IMAGEPROBE_PLAN_SEND) {
        // A 429 or 503's Retry-After, waited out unless the probe's time ends first.
        if (request.wait_seconds > 0) {
            if (now() + request.wait_seconds >= probe_deadline) { imageprobe_planner_fail(planner, IMAGEPROBE_FAIL_TIMEOUT); continue; }
            sleep((unsigned)request.wait_seconds);
        }
        double deadline = now() + timeout < probe_deadline ? now() + timeout : probe_deadline;
        if (now() >= probe_deadline) { imageprobe_planner_fail(planner, IMAGEPROBE_FAIL_TIMEOUT); continue; }
        if (request.secure) { imageprobe_planner_fail(planner, IMAGEPROBE_FAIL_CONNECTION); continue; }
        imageprobe_planner_text(planner, IMAGEPROBE_TEXT_HOST, host, sizeof host);
        char origin[sizeof connected];
        snprintf(origin, sizeof origin, "%s:%d", host, request.port);
        if (fd >= 0 && strcmp(origin, connected) != 0) { close(fd); fd = -1; }
        if (fd < 0) {
            int failure;
            fd = connect_to(host, request.port, public_only, allow, deadline, &failure);
            if (fd < 0) { imageprobe_planner_fail(planner, failure); continue; }
            snprintf(connected, sizeof connected, "%s", origin);
        }
        size_t length = imageprobe_planner_text(planner, IMAGEPROBE_TEXT_REQUEST_HEAD, head, sizeof head - 128);
        length += (size_t)snprintf(head + length, sizeof head - length, "User-Agent: %s\r\n\r\n", agent);
        if (send(fd, head, length, MSG_NOSIGNAL) != (ssize_t)length) {
            imageprobe_planner_fail(planner, IMAGEPROBE_FAIL_CONNECTION);
            close(fd); fd = -1;
            continue;
        }
        int progress = IMAGEPROBE_WIRE_MORE;
        while (progress == IMAGEPROBE_WIRE_MORE) {
            if (!wait_for(fd, POLLIN, deadline)) { imageprobe_planner_fail(planner, IMAGEPROBE_FAIL_TIMEOUT); break; }
            ssize_t got = recv(fd, buffer, sizeof buffer, 0);
            if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (got <= 0) { imageprobe_planner_wire_closed(planner); break; }
            progress = imageprobe_planner_wire(planner, buffer, (size_t)got);
        }
        if (progress != IMAGEPROBE_WIRE_ENDED_REUSABLE) { close(fd); fd = -1; }
    }
    if (fd >= 0) close(fd);
    unsigned long long bytes = (unsigned long long)imageprobe_planner_bytes_received(planner);
    unsigned requests = imageprobe_planner_requests(planner);
    if (step == IMAGEPROBE_DONE) {
        printf("{\"format\":\"%s\",\"width\":%lld,\"height\":%lld,\"bytesTransferred\":%llu,\"requests\":%u}\n",
               info.format_name, (long long)info.width, (long long)info.height, bytes, requests);
        return 0;
    }
    printf("{\"error\":\"%s\",\"fetchError\":\"%s\",\"message\":\"%s\",\"bytesTransferred\":%llu,\"requests\":%u}\n",
           info.error, info.fetch_error, info.message, bytes, requests);
    free(planner);
    return 3;
}
