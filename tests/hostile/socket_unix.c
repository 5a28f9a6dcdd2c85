/* socket_unix: connect to a host unix socket (argv[1], e.g. the Docker or
 * systemd socket) -> FORBIDDEN_SYSCALL socket (the socket call itself). */
#include <sys/socket.h>
#include <sys/un.h>

#include "hostile.h"

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "/run/systemd/private";
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return forbidden_call_returned("socket(AF_UNIX)", fd);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    return forbidden_call_returned("connect(AF_UNIX)", connect(fd, (struct sockaddr *)&addr, sizeof addr));
}
