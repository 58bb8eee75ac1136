// TCP_INFO from the kernel's own header (glibc's netinet/tcp.h lacks tcpi_bytes_received), in
// a file of its own so its definitions never meet glibc's.
typedef int ip_socket_counters_translation_unit_is_not_empty;

#ifdef __linux__
#include <netinet/in.h>
#include <linux/tcp.h>
#include <stddef.h>
#include <sys/socket.h>

long long ip_socket_bytes_received(int socket) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    if (length < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) return -1;
    return (long long)info.tcpi_bytes_received;
}
#endif
