/*
 * hostile.h - shared by the attack programs of the hostile suite (tests/hostile/).
 *
 * Each program tries one thing a bot must never manage. Where the jail stops an
 * attack by killing the program (a forbidden system call, a limit), the verdict
 * says so. Where the attack is refused by an error instead, the program checks
 * that error itself and exits 0 only if every attempt failed, so an OK verdict
 * proves nothing got through; a success is printed as "ESCAPED: ..." on stderr
 * and makes it exit 1. expect.txt gives each program's exact verdict.
 */
#ifndef HOSTILE_H
#define HOSTILE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int hostile_escapes;

/* An attempt that must be refused: rc < 0 (errno set) is the good outcome. */
static inline void must_fail(const char *what, long rc)
{
    if (rc < 0) {
        fprintf(stderr, "refused: %s: %s\n", what, strerror(errno));
        return;
    }
    fprintf(stderr, "ESCAPED: %s worked (returned %ld)\n", what, rc);
    hostile_escapes++;
}

/* Like must_fail for an open(): closes what should never have opened. */
static inline void must_not_open(const char *path, int flags)
{
    int fd = open(path, flags | O_CLOEXEC);
    char what[512];
    snprintf(what, sizeof what, "open %s", path);
    must_fail(what, fd);
    if (fd >= 0)
        close(fd);
}

static inline void escaped(const char *what)
{
    fprintf(stderr, "ESCAPED: %s\n", what);
    hostile_escapes++;
}

/* Exit status: 0 when every attempt was refused. */
static inline int hostile_result(void)
{
    return hostile_escapes ? 1 : 0;
}

static inline void burn_cpu_forever(void)
{
    for (volatile unsigned long n = 0;; n++)
        ;
}

static inline void sleep_forever(void)
{
    for (;;)
        pause();
}

/* A setsid'd grandchild running `run` (which never returns), its parent waited for: an orphan
 * left behind by the jail's first process. -1 when the first fork fails. */
static inline int start_orphan(void (*run)(void))
{
    pid_t child = fork();
    if (child < 0)
        return -1;
    if (child == 0) {
        setsid();
        if (fork() == 0)
            run();
        _exit(0);
    }
    waitpid(child, NULL, 0);
    return 0;
}

/* A forbidden call the jail must kill us at; falling through means it did not. */
static inline int forbidden_call_returned(const char *what, long rc)
{
    fprintf(stderr, "ESCAPED: %s returned %ld (%s) instead of the jail stopping it\n", what, rc,
            rc < 0 ? strerror(errno) : "success");
    return 1;
}

#endif
