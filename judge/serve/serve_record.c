/*
 * serve_record.c - the records of network games (seabattle-network.md N8): a finished game
 * is a replay, DIR/game-N.jsonl.gz, like a match of `judge run` whose two players are named
 * by their player-id (no command: they played over the network); a game the server's end
 * cut short is DIR/game-N.aborted.json. Both are written under a temporary name, fsynced
 * and renamed, so nothing is ever half-written.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "judge/match/match_replay.h"
#include "replay/replay.h"
#include "judge/serve/serve_internal.h"
#include "sandbox/jail.h"

#define MAP_SOURCE "network (judge serve seabattle)"

int64_t record_last_id(const char *dir)
{
    int64_t last = 0;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        long long n;
        int used = 0;
        if (sscanf(e->d_name, "game-%lld.%n", &n, &used) == 1 && used > 0 && n > last)
            last = n;
    }
    closedir(d);
    return last;
}

static void game_path(const struct serve_config *cfg, int64_t id, const char *suffix, char *path, size_t len)
{
    snprintf(path, len, "%s/game-%" PRId64 "%s", cfg->replays_dir, id, suffix);
}

static void setup_of(const struct serve_config *cfg, struct net_game *g, const struct match_player *house,
                     struct match_setup *s)
{
    static char map_text[] = "", map_source[] = MAP_SOURCE, profile[] = "network";
    memset(s, 0, sizeof *s);
    s->rules = &seabattle_rules;
    s->map_text = map_text;
    s->map_source = map_source;
    memcpy(s->params, cfg->params, sizeof cfg->params);
    s->seed = (uint64_t)g->id;
    s->limits = (struct match_limits){.move_wall_ms = cfg->move_wall_ms,
                                      .max_line_bytes = (uint64_t)cfg->params[SP_MAX_LINE_BYTES]};
    s->n_players = 2;
    for (int p = 1; p <= 2; p++) {
        s->players[p - 1] = (struct match_player){.name = g->seat[p].id, .profile = profile};
        if (g->seat[p].house && house) {   /* the house bot's command, as `judge run` records it */
            s->players[p - 1] = *house;
            s->players[p - 1].name = g->seat[p].id;
        }
    }
    s->isolation = ISOLATION_STRICT;
}

static int outcome_of(struct net_game *g, struct match_outcome *o)
{
    struct game_result r;
    if (g->g->rules->result(g->g, &r) < 0)
        return -1;
    *o = (struct match_outcome){.players = 2, .winner = r.winner, .draw = r.draw, .rounds = r.rounds,
                                .replies = g->replies};
    for (int p = 1; p <= 2; p++) {
        struct match_player_outcome *po = &o->p[p];
        po->player = p;
        po->place = r.p[p].place;
        po->points = r.p[p].points;
        po->verdict = g->seat[p].violated ? g->seat[p].verdict : MATCH_OK;
        po->violation.kind = r.p[p].violation;
        po->moves = g->seat[p].moves;
        memcpy(po->stats, r.p[p].stats, sizeof po->stats);
    }
    return 0;
}

static int write_replay(const char *path, const struct strbuf *head, const struct strbuf *lines,
                        const struct strbuf *tail, char *err, size_t errlen)
{
    struct replay_writer *w;
    struct replay_error rerr;
    if (replay_writer_open(path, &w, &rerr) < 0) {
        snprintf(err, errlen, "%s", rerr.msg);
        return -1;
    }
    int rc = replay_writer_put(w, head->data, head->len, &rerr);
    for (size_t at = 0; rc == 0 && at < lines->len;) {
        const char *nl = memchr(lines->data + at, '\n', lines->len - at);
        size_t n = nl ? (size_t)(nl - (lines->data + at)) : lines->len - at;
        rc = replay_writer_put(w, lines->data + at, n, &rerr);
        at += n + 1;
    }
    if (rc == 0)
        rc = replay_writer_put(w, tail->data, tail->len, &rerr);
    if (rc < 0) {
        replay_writer_abort(w);
    } else {
        rc = replay_writer_commit(w, &rerr);
    }
    if (rc < 0)
        snprintf(err, errlen, "%s", rerr.msg);
    return rc;
}

int record_game(const struct serve_config *cfg, struct net_game *g, const struct match_player *house, char *path,
                size_t pathlen, char *err, size_t errlen)
{
    struct match_setup s;
    struct match_outcome o;
    struct host_info host;
    struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;
    if (!cfg->replays_dir)
        return 0;
    game_path(cfg, g->id, ".jsonl.gz", path, pathlen);
    setup_of(cfg, g, house, &s);
    host_info_read(&host);
    int rc = outcome_of(g, &o);
    if (rc == 0 && (replay_record_header(&head, &s, NULL, &host, g->started_unix) < 0 ||
                    replay_record_result(&tail, &s, &o, monotonic_ns() - g->started_ns) < 0))
        rc = -1;
    if (rc < 0)
        snprintf(err, errlen, "%s: out of memory", path);
    else
        rc = write_replay(path, &head, &g->lines, &tail, err, errlen);
    sb_free(&head);
    sb_free(&tail);
    return rc;
}

int record_aborted(const struct serve_config *cfg, const struct net_game *g, const char *why, char *path,
                   size_t pathlen, char *err, size_t errlen)
{
    struct strbuf sb = STRBUF_INIT;
    if (!cfg->replays_dir)
        return 0;
    game_path(cfg, g->id, ".aborted.json", path, pathlen);
    int shots = g->g ? g->g->rules->round(g->g) - (net_game_shooter(g) ? 1 : 0) : 0;
    int rc = sb_printf(&sb, "{\"game\":%" PRId64 ",\"status\":\"aborted\",\"was\":\"%s\",\"players\":[", g->id,
                       g->status == NET_WAITING ? "waiting" : "in-progress");
    for (int p = 1; p <= 2 && rc == 0; p++) {
        if (p > 1)
            rc = sb_putc(&sb, ',');
        if (rc == 0)
            rc = g->seat[p].id[0] ? sb_json_string(&sb, g->seat[p].id, strlen(g->seat[p].id)) : sb_puts(&sb, "null");
    }
    if (rc == 0)
        rc = sb_printf(&sb, "],\"shots\":%d,\"started_unix\":%" PRId64 ",\"reason\":", shots < 0 ? 0 : shots,
                       g->started_unix);
    if (rc == 0)
        rc = sb_json_string(&sb, why, strlen(why)) < 0 || sb_puts(&sb, ",\"log\":") < 0 ? -1 : 0;
    if (rc == 0)
        rc = sb_json_string(&sb, g->log.data ? g->log.data : "", g->log.len);
    if (rc == 0)
        rc = sb_puts(&sb, "}\n");
    if (rc < 0)
        snprintf(err, errlen, "%s: out of memory", path);
    else
        rc = atomic_file_write_whole(path, sb.data, sb.len, err, errlen);
    sb_free(&sb);
    return rc;
}
