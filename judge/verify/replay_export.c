/* replay_export.c - a replay in the game's original log format (engine set_log). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/text_quote.h"
#include "common/atomic_file.h"
#include "judge/verify/replay_verify.h"

/* The game named in the replay header: one of ours (anything else is quoted escaped in the error). */
static int header_game(const char *path, char *game, size_t size, struct replay_error *err)
{
    struct replay_reader *rd;
    struct json_object *header, *name;
    if (replay_reader_open(path, &rd, err) < 0)
        return -1;
    int rc = replay_reader_next(rd, &header, err);
    replay_reader_close(rd);
    if (rc < 0)
        return -1;
    rc = json_object_object_get_ex(header, "game", &name) && json_object_is_type(name, json_type_string);
    char quoted[4 * TEXT_QUOTE_MAX + 8];
    if (rc && game_find(json_object_get_string(name)))
        snprintf(game, size, "%s", json_object_get_string(name));
    else if (rc)
        snprintf(err->msg, sizeof err->msg, "%.400s: line 1: unknown game %s", path,
                 text_quote(quoted, sizeof quoted, json_object_get_string(name)));
    else
        snprintf(err->msg, sizeof err->msg, "%s: line 1: no \"game\"", path);
    rc = rc && game[0];
    json_object_put(header);
    return rc ? 0 : -1;
}

int replay_export(const char *path, const char *format, const char *out_path,
                  struct strbuf *to_stdout, struct replay_error *err)
{
    char game[64] = "", wanted[80];
    if (header_game(path, game, sizeof game, err) < 0)
        return -1;
    snprintf(wanted, sizeof wanted, "%s-log", game);
    if (strcmp(format, wanted) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: a %s replay exports as --format %s, not %s", path, game,
                 wanted, format);
        return -1;
    }
    struct strbuf log = STRBUF_INIT;
    int rc = replay_verify(path, &log, NULL, err);
    if (rc == 0 && out_path)
        rc = atomic_file_write_whole(out_path, log.data ? log.data : "", log.len, err->msg, sizeof err->msg);
    else if (rc == 0 && sb_append(to_stdout, log.data ? log.data : "", log.len) < 0)
        rc = -1;
    sb_free(&log);
    return rc;
}
