/*
 * tournament_worker.c - one match of a tournament, played in one of the worker
 * processes tournament_runner.c forks: the replay is committed (renamed
 * into place, fsynced) before the journal line is handed back, so a line never
 * names a replay that is not there.
 */
#include "judge/tournament/tournament.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "replay/replay.h"
#include "judge/match/match_replay.h"

/* The journal line, from the same result record the replay ends with. */
static int journal_line(const struct match_setup *s, const struct match_outcome *o, const char *id,
                        struct strbuf *line)
{
    struct strbuf result = STRBUF_INIT;
    int rc = replay_record_result(&result, s, o, 0);
    json_object *obj = rc == 0 ? json_tokener_parse(result.data) : NULL;
    rc = obj ? tournament_result_line(id, obj, line) : -1;
    json_object_put(obj);
    sb_free(&result);
    return rc;
}

/* A match that ends in INTERNAL_ERROR for anyone is the judge's failure, not a result. */
static bool internal_error(const struct match_outcome *o)
{
    for (int p = 1; p <= o->players; p++)
        if (o->p[p].verdict == MATCH_INTERNAL_ERROR) return true;
    return false;
}

int tournament_worker_play(const struct match_setup *s, const char *id, const char *replay_path,
                           struct strbuf *line, struct tournament_error *err)
{
    struct replay_writer *w;
    struct replay_error rerr;
    int rc = replay_writer_open(replay_path, &w, &rerr);
    if (rc < 0) {
        snprintf(err->msg, sizeof err->msg, "%s", rerr.msg);
        return rc == REPLAY_STORAGE_FAILED ? TOURNAMENT_STORAGE_FAILED : -1;
    }
    struct match_outcome out;
    struct match_error merr;
    rc = match_play(s, w, NULL, &out, &merr);
    if (rc == 0 && internal_error(&out)) {
        snprintf(merr.msg, sizeof merr.msg, "a player's verdict is INTERNAL_ERROR");
        rc = -1;
    } else if (rc == 0 && journal_line(s, &out, id, line) < 0) {
        snprintf(merr.msg, sizeof merr.msg, "cannot make the journal line");
        rc = -1;
    }
    if (rc < 0)
        replay_writer_abort(w);
    else if ((rc = replay_writer_commit(w, &rerr)) < 0) {
        snprintf(merr.msg, sizeof merr.msg, "%s", rerr.msg);
        if (rc == REPLAY_STORAGE_FAILED) rc = TOURNAMENT_STORAGE_FAILED;
    }
    match_outcome_free(&out);
    if (rc < 0) snprintf(err->msg, sizeof err->msg, "%s", merr.msg);
    return rc;
}
