/* connect_localhost: reach a service on the host's 127.0.0.1 -> FORBIDDEN_SYSCALL
 * socket (stopped at socket(), before any connect). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "hostile.h"

int main(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return forbidden_call_returned("socket(AF_INET)", fd);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(22)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return forbidden_call_returned("connect(127.0.0.1)", connect(fd, (struct sockaddr *)&addr, sizeof addr));
}
