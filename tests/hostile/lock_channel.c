/* lock_channel: two jails that share only read-only files must not signal each other
 * through them. "send" (a jail of its own, with --rw-dir) takes a flock on /usr, a POSIX
 * and an OFD read lock on /etc/ld.so.cache and a read lease on it, writes /data/ready,
 * then keeps opening /usr/bin/env for 2 s. "receive" (a second jail meanwhile) looks:
 * flock(LOCK_EX|LOCK_NB) on /usr, F_GETLK / F_OFD_GETLK on the same bytes, and inotify
 * on /usr/bin. Each call may be refused with an errno (never a violation). The receiver
 * exits 0 iff it observed nothing -> OK; the sender exits 0 -> OK. */
#include <poll.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <time.h>

#include "hostile.h"

#define LOCKED_FILE "/etc/ld.so.cache"

static void try_call(const char *what, long rc)
{
    if (rc < 0)
        fprintf(stderr, "refused: %s: %s\n", what, strerror(errno));
    else
        fprintf(stderr, "allowed: %s\n", what);
}

static struct flock byte_lock(short type, off_t at)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = at, .l_len = 1};
    return l;
}

static int send(void)
{
    int dir = open("/usr", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int file = open(LOCKED_FILE, O_RDONLY | O_CLOEXEC);
    if (dir < 0 || file < 0)
        return 2;
    try_call("flock(LOCK_SH) on /usr", flock(dir, LOCK_SH));
    struct flock posix = byte_lock(F_RDLCK, 0), ofd = byte_lock(F_RDLCK, 1);
    try_call("F_SETLK read lock", fcntl(file, F_SETLK, &posix));
    try_call("F_OFD_SETLK read lock", fcntl(file, F_OFD_SETLK, &ofd));
    try_call("F_SETLEASE read lease", fcntl(file, F_SETLEASE, F_RDLCK));
    int ready = open("/data/ready", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (ready < 0)
        return 2;
    close(ready);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do { /* inotify's signal: opens and reads of a shared inode */
        char byte;
        int fd = open("/usr/bin/env", O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && read(fd, &byte, 1) < 0)
            fprintf(stderr, "read: %s\n", strerror(errno));
        if (fd >= 0)
            close(fd);
        usleep(1000);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec - start.tv_sec < 2);
    return 0;
}

static void look_with_getlk(int file, int cmd, const char *name, off_t at)
{
    struct flock l = byte_lock(F_WRLCK, at);
    if (fcntl(file, cmd, &l) < 0)
        fprintf(stderr, "refused: %s: %s\n", name, strerror(errno));
    else if (l.l_type != F_UNLCK)
        escaped(name); /* another jail's lock seen */
}

static void look_with_inotify(void)
{
    int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (in < 0) {
        fprintf(stderr, "refused: inotify_init1: %s\n", strerror(errno));
        return;
    }
    if (inotify_add_watch(in, "/usr/bin", IN_OPEN | IN_ACCESS | IN_CLOSE_NOWRITE) < 0) {
        fprintf(stderr, "refused: inotify_add_watch: %s\n", strerror(errno));
        close(in);
        return;
    }
    struct pollfd p = {.fd = in, .events = POLLIN};
    if (poll(&p, 1, 500) > 0)
        escaped("inotify saw another process open a file of /usr/bin");
    close(in);
}

static int receive(void)
{
    int dir = open("/usr", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int file = open(LOCKED_FILE, O_RDONLY | O_CLOEXEC);
    if (dir < 0 || file < 0)
        return 2;
    if (flock(dir, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
        escaped("flock: /usr is locked by another jail");
    else
        fprintf(stderr, "flock: nothing seen (%s)\n", strerror(errno));
    look_with_getlk(file, F_GETLK, "F_GETLK saw another jail's lock", 0);
    look_with_getlk(file, F_OFD_GETLK, "F_OFD_GETLK saw another jail's lock", 1);
    look_with_inotify();
    return hostile_result();
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "send"))
        return send();
    if (argc == 2 && !strcmp(argv[1], "receive"))
        return receive();
    return 2;
}
