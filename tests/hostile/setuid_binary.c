/* setuid_binary: run.sh copies /usr/bin/id next to this program as a
 * set-user-id root file. Running it must not raise our euid (no_new_privs,
 * nosuid): `./id -u` must print our own euid. Exit 0 iff it did -> OK. */
#include "hostile.h"

int main(void)
{
    int fds[2];
    if (pipe(fds) < 0)
        return 2;
    pid_t child = fork();
    if (child == 0) {
        dup2(fds[1], 1);
        execl("./id", "id", "-u", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char out[64] = "";
    ssize_t n = read(fds[0], out, sizeof out - 1);
    int status;
    waitpid(child, &status, 0);
    if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "./id -u did not run (status %d)\n", status);
        return 2;
    }
    out[n] = '\0';
    unsigned long euid_seen = strtoul(out, NULL, 10);
    fprintf(stderr, "our euid %u, ./id -u says %lu\n", (unsigned)geteuid(), euid_seen);
    if (euid_seen != geteuid())
        escaped("the set-user-id bit changed the euid");
    return hostile_result();
}
