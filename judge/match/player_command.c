/*
 * player_command.c - where a `command:` player's program is on the host, and
 * whether the jail's user may run it (judge/match/player_command.h).
 *
 * Run as root, every jail is a user of its own, neither the owner nor in the
 * group of the bot's files: the "others" permission bits are what it gets. As
 * an ordinary user, jails run as that user, and access(2) answers.
 */
#include "judge/match/player_command.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool jails_are_others(void)
{
    return geteuid() == 0;
}

/* Whether the jail's user has `want` (R_OK, X_OK) on st/path. */
static bool jail_may(const char *path, const struct stat *st, int want)
{
    if (!jails_are_others()) return access(path, want) == 0;
    mode_t need = (want & R_OK ? S_IROTH : 0) | (want & X_OK ? S_IXOTH : 0);
    return (st->st_mode & need) == need;
}

/* Every directory from / down to dir must let the jail's user through. */
int player_dir_check(const char *given, char *msg, size_t size)
{
    char dir[PATH_MAX], prefix[PATH_MAX];
    if (!realpath(given, dir)) return 0; /* a missing directory is reported where it is opened */
    size_t len = strlen(dir);
    for (size_t end = 1; end <= len; end++) {
        if (end < len && dir[end] != '/') continue;
        memcpy(prefix, dir, end);
        prefix[end] = '\0';
        struct stat st;
        if (stat(prefix, &st) < 0 || !S_ISDIR(st.st_mode) || jail_may(prefix, &st, X_OK)) continue;
        snprintf(msg, size,
                 "bots run as an unprivileged user of their own, which cannot enter %s (mode %04o)%s; "
                 "fix: chmod a+rx %s, or keep the bot in a directory everyone can enter",
                 prefix, (unsigned)(st.st_mode & 07777), end == len ? ", the bot's directory" : "", prefix);
        return -1;
    }
    return 0;
}

static int check_readable_file(const char *path, const struct stat *st, char *msg, size_t size)
{
    if (jail_may(path, st, R_OK)) return 0;
    snprintf(msg, size,
             "bots run as an unprivileged user of their own, which cannot read %s (mode %04o); fix: chmod a+r %s",
             path, (unsigned)(st->st_mode & 07777), path);
    return -1;
}

/* A bare name is looked up in the jail's PATH (the system directories every jail sees). */
static int find_on_path(const char *cmd, char *found, size_t size, char *msg, size_t msg_size)
{
    char dirs[] = JAIL_PATH;
    struct stat st;
    for (char *save, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(found, size, "%s/%s", d, cmd);
        if (stat(found, &st) == 0 && S_ISREG(st.st_mode) && access(found, X_OK) == 0) return 0;
    }
    snprintf(msg, msg_size, "command '%s' not found (%s in %s)", cmd, cmd, JAIL_PATH);
    return -1;
}

/* Where the jail finds argv[0], seen from the host: /bot is the player's dir. */
static void host_path_of(const struct player_config *p, char *found, size_t size)
{
    const char *cmd = p->argv[0], *bot = JAIL_BOT_DIR "/";
    if (!strncmp(cmd, bot, strlen(bot)))
        snprintf(found, size, "%s/%s", p->dir ? p->dir : JAIL_BOT_DIR, cmd + strlen(bot));
    else if (cmd[0] == '/')
        snprintf(found, size, "%s", cmd);
    else
        snprintf(found, size, "%s/%s", p->dir ? p->dir : "(no dir)", cmd + (strncmp(cmd, "./", 2) ? 0 : 2));
}

static bool in_bot_dir(const struct player_config *p, const char *path)
{
    size_t len = p->dir ? strlen(p->dir) : 0;
    return len && !strncmp(path, p->dir, len) && path[len] == '/';
}

/* A #! line saved with Windows line endings names an interpreter ending in '\r', which the
 * jail's execve (or env) does not find: exit 127, with a message about another thing. */
static int check_shebang_line(const struct player_config *p, const char *found, const char *head, char *msg,
                              size_t size)
{
    const char *nl = strchr(head, '\n');
    if (!nl || nl == head || nl[-1] != '\r') return 0;
    snprintf(msg, size,
             "'%s' (%s) has Windows line endings (CRLF): its #! line names an interpreter ending in \\r, "
             "which is not found; fix: sed -i 's/\\r$//' %s (or dos2unix), or name the interpreter first in "
             "the command (command: [python3, %s])",
             p->argv[0], found, found, p->argv[0]);
    return -1;
}

/* The kernel runs an ELF program or a script that names its interpreter (#!); anything else
 * fails execve in the jail (ENOEXEC), which would be the match's fault, not the bot's. */
static int check_runnable(const struct player_config *p, const char *found, char *msg, size_t size)
{
    char head[256] = {0};
    int fd = open(found, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    ssize_t n = fd >= 0 ? read(fd, head, sizeof head - 1) : -1;
    if (fd >= 0) close(fd);
    if (n >= 2 && !memcmp(head, "#!", 2)) return check_shebang_line(p, found, head, msg, size);
    if (n < 0 || (n >= 4 && !memcmp(head, "\x7f" "ELF", 4))) return 0;
    snprintf(msg, size,
             "'%s' (%s) is neither a program nor a script with a #! line; fix: make its first line "
             "#!/bin/sh (or its interpreter's), or name the interpreter first in the command "
             "(command: [sh, %s])",
             p->argv[0], found, p->argv[0]);
    return -1;
}

static int check_program(const struct player_config *p, const char *found, char *msg, size_t size)
{
    struct stat st;
    if (stat(found, &st) < 0) {
        if (errno == ENOENT)
            snprintf(msg, size, "command '%s' not found (%s)", p->argv[0], found);
        else
            snprintf(msg, size, "command '%s' not found (%s: %s)", p->argv[0], found, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, size, "command '%s' (%s) is not a regular file", p->argv[0], found);
        return -1;
    }
    if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH))) {
        snprintf(msg, size, "'%s' (%s) is not executable; fix: chmod +x %s, or name its interpreter first in "
                 "the command (command: [python3, %s])", p->argv[0], found, found, p->argv[0]);
        return -1;
    }
    if (!in_bot_dir(p, found)) return 0; /* the system's programs: the jail sees them as the host does */
    if (!jail_may(found, &st, X_OK)) {
        snprintf(msg, size, "bots run as an unprivileged user of their own, which cannot execute %s (mode "
                 "%04o); fix: chmod a+rx %s", found, (unsigned)(st.st_mode & 07777), found);
        return -1;
    }
    if (check_readable_file(found, &st, msg, size) < 0) /* a script is read by its interpreter */
        return -1;
    return check_runnable(p, found, msg, size);
}

/* Arguments naming files of the bot (python3 bot.py) must be readable too. */
static int check_argument_files(const struct player_config *p, char *msg, size_t size)
{
    char path[4200];
    for (int a = 1; p->dir && a < p->argc; a++) {
        if (p->argv[a][0] == '-' || p->argv[a][0] == '/') continue;
        snprintf(path, sizeof path, "%s/%s", p->dir, p->argv[a]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && check_readable_file(path, &st, msg, size) < 0)
            return -1;
    }
    return 0;
}

int player_command_check(const struct player_config *p, char *host_path, size_t host_size, char *msg,
                         size_t msg_size)
{
    if (p->dir && player_dir_check(p->dir, msg, msg_size) < 0) return -1;
    if (!strchr(p->argv[0], '/')) {
        if (find_on_path(p->argv[0], host_path, host_size, msg, msg_size) < 0) return -1;
    } else {
        host_path_of(p, host_path, host_size);
        if (check_program(p, host_path, msg, msg_size) < 0) return -1;
    }
    return check_argument_files(p, msg, msg_size);
}
