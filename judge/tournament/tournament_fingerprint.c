/*
 * tournament_fingerprint.c - a hash of everything in a tournament file that
 * decides which matches are played and how: resuming into an output directory
 * made by a different definition is refused. Comments, key order and the
 * output directory do not count; map files count by content; the bots'
 * programs are not read (the replays record their commands).
 */
#include "judge/tournament/tournament.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct hash {
    uint64_t h;
};

static void mix(struct hash *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) h->h = (h->h ^ p[i]) * 0x100000001b3ULL;
}

/* A string and its terminator, so "ab","c" and "a","bc" differ. */
static void mix_str(struct hash *h, const char *s)
{
    mix(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

static void mix_u64(struct hash *h, uint64_t v)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%llu;", (unsigned long long)v);
    mix(h, buf, (size_t)n);
}

static void mix_named(struct hash *h, const char *what, const struct named_value *list, size_t n)
{
    mix_str(h, what);
    mix_u64(h, n);
    for (size_t i = 0; i < n; i++) {
        mix_str(h, list[i].name);
        mix_u64(h, (uint64_t)list[i].value);
    }
}

static int mix_file(struct hash *h, const char *path, struct tournament_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) mix(h, buf, (size_t)n);
    int saved = errno;
    close(fd);
    if (n < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

static void mix_player(struct hash *h, const struct player_config *p)
{
    mix_str(h, p->name);
    mix_u64(h, (uint64_t)p->argc);
    for (int i = 0; i < p->argc; i++) mix_str(h, p->argv[i]);
    mix_str(h, p->dir);
    mix_str(h, p->profile);
    if (p->source) mix_str(h, p->source); /* its content keys the compiled bot instead (source_hash.c) */
}

int tournament_fingerprint(const struct tournament_config *cfg, char out[17], struct tournament_error *err)
{
    struct hash h = {0xcbf29ce484222325ULL};
    mix_str(&h, "judge-tournament 1");
    mix_str(&h, cfg->game);
    mix_str(&h, tournament_format_name(cfg->format));
    mix_u64(&h, (uint64_t)cfg->per_match);
    mix_u64(&h, cfg->sample);
    mix_u64(&h, (uint64_t)cfg->isolation);
    mix_u64(&h, cfg->no_freeze);
    mix_named(&h, "params", cfg->params, cfg->n_params);
    mix_named(&h, "limits", cfg->limits, cfg->n_limits);
    for (size_t i = 0; i < cfg->n_arenas; i++) {
        const struct tournament_arena *a = &cfg->arenas[i];
        if (a->map_path) {
            mix_str(&h, "map");
            if (mix_file(&h, a->map_path, err) < 0) return -1;
        } else {
            mix_named(&h, "generate", a->generate, a->n_generate);
        }
    }
    mix_str(&h, "seeds");
    for (size_t i = 0; i < cfg->n_seeds; i++) mix_u64(&h, cfg->seeds[i]);
    mix_u64(&h, cfg->n_submissions);
    for (size_t i = 0; i < cfg->n_players; i++) mix_player(&h, &cfg->players[i]);
    snprintf(out, 17, "%016llx", (unsigned long long)h.h);
    return 0;
}
