#ifndef IMAGEPROBE_CCURLSHIM_H
#define IMAGEPROBE_CCURLSHIM_H

// libcurl's setters and getters are variadic, which Swift cannot call: these fix each
// argument's type. Linux only; Apple platforms use URLSession.
#ifdef __linux__
#include <curl/curl.h>

CURLcode ip_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// Strings, string lists and callback data. Strings are copied by libcurl.
CURLcode ip_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
CURLcode ip_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode ip_easy_setopt_opensocket_callback(CURL *handle, curl_opensocket_callback callback);
CURLcode ip_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ip_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLMcode ip_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// Only http and https, also on redirects (CURLOPT_PROTOCOLS_STR from 7.85, the bit mask before).
CURLcode ip_easy_allow_http_only(CURL *handle);
/// Don't wait for a resolver thread still blocked in getaddrinfo when a transfer is abandoned
/// (CURLOPT_QUICK_EXIT, 7.87). Returns CURLE_UNKNOWN_OPTION on older versions.
CURLcode ip_easy_quick_exit(CURL *handle);

/// CURLOPT_DEBUGFUNCTION (with CURLOPT_VERBOSE): every byte received, headers and body as
/// they came off the connection (chunk framing, extensions and trailers included).
CURLcode ip_easy_setopt_debug_callback(CURL *handle, curl_debug_callback callback);
/// CURLOPT_XFERINFOFUNCTION (progress turned on): called as the transfer runs, even when no
/// body byte reaches the write callback; non-zero aborts it.
CURLcode ip_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
/// CURLINFO_ACTIVESOCKET: the socket the transfer is on, or -1.
int ip_easy_active_socket(CURL *handle);
/// The bytes TCP has received on `socket` (TCP_INFO's tcpi_bytes_received, Linux 4.1), or -1.
long long ip_socket_bytes_received(int socket);

/// The address libcurl is about to connect to: its family, and the raw address (4 bytes for
/// AF_INET, 16 for AF_INET6) copied to `bytes`. Returns 0 for other families.
int ip_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char bytes[16]);
#endif

#endif
