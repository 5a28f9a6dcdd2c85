/*
 * match_datadir.h - each player's data directory for one match (warlight
 * §4.1): made empty before the match, kept across every process of the
 * player, capped at the game's data_quota_kb, owned by one jail identity held
 * for the whole match (so the player's files stay its own and nobody else's),
 * and removed afterwards. Games without a data_quota_kb parameter get none.
 * Private to the match runner.
 */
#ifndef JUDGE_MATCH_DATADIR_H
#define JUDGE_MATCH_DATADIR_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/match/match.h"

struct match_datadir {
    char path[PATH_MAX];
    struct jail_identity *identity;
    bool made;
    char **argv;    /* the command, a relative one made absolute (the working directory moves) */
    char *argv0;
};

struct match_datadirs {
    bool active;              /* the game has data directories */
    char base[PATH_MAX];      /* the match's private temporary directory */
    uint64_t quota_bytes;
    bool degraded;            /* plain directories: the cap is checked after each process */
    int players;
    struct match_datadir p[GAME_MAX_PLAYERS + 1];
};

/* Make every player's directory (nothing when the game has none). */
int datadirs_open(struct match_datadirs *d, const struct match_setup *s, struct jail_error *err);
/* Bind player p's directory at JAIL_RW_DIR as its working directory, with its
 * identity and its command (argv points into d). */
void datadirs_apply(const struct match_datadirs *d, int player, struct jail_spec *spec);
/* Where the filesystem does not enforce the cap (degraded): empty a directory
 * found over it. A no-op otherwise. */
int datadirs_enforce(struct match_datadirs *d, int player, struct jail_error *err);
/* Remove every directory and release the identities. */
void datadirs_close(struct match_datadirs *d);

#endif
