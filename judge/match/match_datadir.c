/*
 * match_datadir.c - the players' data directories of one match: a private
 * temporary directory holding one size-capped scratch directory per player
 * (sandbox/jail_scratch.c: a tmpfs owned by the player's host uid as root,
 * a plain directory otherwise), removed without following anything a bot
 * planted there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/match/match_datadir.h"
#include "sandbox/fs_safe.h"

static int fail_errno(struct jail_error *err, const char *what, const char *path)
{
    snprintf(err->msg, sizeof err->msg, "data directory: %s %.160s: %s", what, path, strerror(errno));
    return -1;
}

static int make_base(struct match_datadirs *d, struct jail_error *err)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/' || strlen(tmp) > sizeof d->base - 32)
        tmp = "/tmp";
    snprintf(d->base, sizeof d->base, "%s/judge-data-XXXXXX", tmp);
    if (!mkdtemp(d->base)) {
        int saved = errno;
        char shown[sizeof d->base];
        snprintf(shown, sizeof shown, "%s", d->base);
        d->base[0] = '\0';
        errno = saved;
        return fail_errno(err, "mkdtemp", shown);
    }
    return 0;
}

/* "./bot" or "bot/x" ran from /bot, the working directory otherwise: now from /data. */
static int absolute_command(struct match_datadir *pd, const struct match_player *mp, struct jail_error *err)
{
    const char *cmd = mp->argv[0];
    pd->argv = calloc((size_t)mp->argc + 1, sizeof *pd->argv);
    bool relative = cmd[0] != '/' && strchr(cmd, '/');
    if (relative && asprintf(&pd->argv0, "%s/%s", JAIL_BOT_DIR, strncmp(cmd, "./", 2) ? cmd : cmd + 2) < 0)
        pd->argv0 = NULL;
    if (!pd->argv || (relative && !pd->argv0)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    memcpy(pd->argv, mp->argv, (size_t)mp->argc * sizeof *pd->argv);
    if (relative)
        pd->argv[0] = pd->argv0;
    return 0;
}

/* The bot's own files where it runs: a link /data/NAME -> /bot/NAME for each
 * entry of its directory, so `python3 attacker.py` and `java -cp . Bot` find
 * them from the data directory. Writes still land in the data directory: a
 * bot replaces a link by unlinking it (the directory is its own), and writing
 * through one reaches the read-only /bot and fails. */
#define BOT_LINKS_MAX 1024
static int link_bot_files(const char *data_dir, const char *bot_dir, struct jail_error *err)
{
    DIR *bot = opendir(bot_dir);
    if (!bot)
        return fail_errno(err, "read the bot's directory", bot_dir);
    int fd = fs_safe_open_dir(data_dir, err), rc = fd < 0 ? -1 : 0, n = 0;
    char target[sizeof JAIL_BOT_DIR + NAME_MAX + 2];
    for (struct dirent *e; rc == 0 && (e = readdir(bot));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (++n > BOT_LINKS_MAX) {
            snprintf(err->msg, sizeof err->msg, "data directory: the bot's directory %.120s has more than %d "
                     "entries; fix: move its files into a subdirectory", bot_dir, BOT_LINKS_MAX);
            rc = -1;
        } else {
            snprintf(target, sizeof target, "%s/%s", JAIL_BOT_DIR, e->d_name);
            if (symlinkat(target, fd, e->d_name) < 0)
                rc = fail_errno(err, "link the bot's file", e->d_name);
        }
    }
    if (fd >= 0)
        close(fd);
    closedir(bot);
    return rc;
}

static int make_player(struct match_datadirs *d, const struct match_setup *s, int p, struct jail_error *err)
{
    struct match_datadir *pd = &d->p[p];
    bool degraded = false;
    if (absolute_command(pd, &s->players[p - 1], err) < 0)
        return -1;
    if (jail_identity_acquire(&pd->identity, err) < 0)
        return -1;
    snprintf(pd->path, sizeof pd->path, "%.4000s/p%d", d->base, p);
    if (jail_scratch_create(pd->path, d->quota_bytes, pd->identity, &degraded, err) < 0)
        return -1;
    pd->made = true;
    d->degraded = d->degraded || degraded;
    const char *bot_dir = s->players[p - 1].dir;
    return bot_dir ? link_bot_files(pd->path, bot_dir, err) : 0;
}

int datadirs_open(struct match_datadirs *d, const struct match_setup *s, struct jail_error *err)
{
    memset(d, 0, sizeof *d);
    if (game_param_index(s->rules, "data_quota_kb") < 0)
        return 0;
    d->active = true;
    d->players = s->n_players;
    d->quota_bytes = (uint64_t)game_param(s->rules, s->params, "data_quota_kb") << 10;
    if (d->quota_bytes == 0)
        d->quota_bytes = 4096;   /* a tmpfs needs a size: one page, which a bot cannot fill usefully */
    if (make_base(d, err) < 0)
        return -1;
    for (int p = 1; p <= s->n_players; p++)
        if (make_player(d, s, p, err) < 0)
            return -1;
    return 0;
}

void datadirs_apply(const struct match_datadirs *d, int player, struct jail_spec *spec)
{
    if (!d->active)
        return;
    spec->argv = (const char *const *)d->p[player].argv;
    spec->rw_dir = d->p[player].path;
    spec->workdir = JAIL_RW_DIR;
    spec->identity = d->p[player].identity;
}

int datadirs_enforce(struct match_datadirs *d, int player, struct jail_error *err)
{
    uint64_t used;
    if (!d->active || !d->degraded)
        return 0;
    if (jail_scratch_usage(d->p[player].path, &used, err) < 0)
        return -1;
    if (used <= d->quota_bytes)
        return 0;
    int fd = fs_safe_open_dir(d->p[player].path, err);
    if (fd < 0)
        return -1;
    int rc = fs_safe_clear_dir(fd, err);
    close(fd);
    return rc;
}

void datadirs_close(struct match_datadirs *d)
{
    struct jail_error ignored;
    for (int p = 1; p <= d->players; p++) {
        if (d->p[p].made)
            jail_scratch_remove(d->p[p].path, &ignored);
        jail_identity_release(d->p[p].identity);
        free(d->p[p].argv);
        free(d->p[p].argv0);
        d->p[p] = (struct match_datadir){0};
    }
    if (d->base[0])
        rmdir(d->base);
    d->base[0] = '\0';
    d->active = false;
}
