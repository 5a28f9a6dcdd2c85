/* socket_unix: reach a host unix socket (argv[1], e.g. the Docker or systemd
 * socket) or another jail's abstract socket in the network namespace all jails
 * share -> OK: socket(AF_UNIX) itself fails with an errno (glibc's nscd probe
 * expects that), so neither connect nor bind is ever reached. */
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "hostile.h"

static void try_connect(int type, const char *path, size_t path_len)
{
    int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
    must_fail("socket(AF_UNIX)", fd);
    if (fd < 0)
        return;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, path, path_len);
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + path_len);
    must_fail("connect(AF_UNIX)", connect(fd, (struct sockaddr *)&addr, len));
    must_fail("bind(AF_UNIX)", bind(fd, (struct sockaddr *)&addr, len));
    close(fd);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "/run/systemd/private";
    try_connect(SOCK_STREAM, path, strlen(path) + 1);
    try_connect(SOCK_DGRAM, path, strlen(path) + 1);
    try_connect(SOCK_STREAM, "\0judge-other-jail", 18); /* abstract: the shared namespace */
    return hostile_result();
}
