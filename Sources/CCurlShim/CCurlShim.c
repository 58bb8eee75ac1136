// Empty on Apple platforms, which use URLSession.
typedef int ip_ccurlshim_translation_unit_is_not_empty;

#ifdef __linux__
#include "CCurlShim.h"
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

CURLcode ip_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ip_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ip_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode ip_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode ip_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ip_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ip_easy_setopt_debug_callback(CURL *handle, curl_debug_callback callback) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_VERBOSE, callback ? 1L : 0L);
    return code;
}

CURLcode ip_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_NOPROGRESS, callback ? 0L : 1L);
    return code;
}

int ip_easy_active_socket(CURL *handle) {
    curl_socket_t socket = CURL_SOCKET_BAD;
    if (curl_easy_getinfo(handle, CURLINFO_ACTIVESOCKET, &socket) != CURLE_OK) return -1;
    return socket == CURL_SOCKET_BAD ? -1 : (int)socket;
}

CURLMcode ip_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLcode ip_easy_allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    return code;
#else
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    return code;
#endif
}

CURLcode ip_easy_quick_exit(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075700
    return curl_easy_setopt(handle, CURLOPT_QUICK_EXIT, 1L);
#else
    (void)handle;
    return CURLE_UNKNOWN_OPTION;
#endif
}

int ip_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char bytes[16]) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&address->addr;
        memcpy(bytes, &in->sin_addr, 4);
        return AF_INET;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&address->addr;
        memcpy(bytes, &in6->sin6_addr, 16);
        return AF_INET6;
    }
    return 0;
}
#endif
