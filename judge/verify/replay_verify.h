/* judge/verify/ - a replay checked against the engine: re-simulated from its
 * header and recorded replies (replay_verify.c), and the game's original log
 * written from a verified replay (replay_export.c). It needs the engine,
 * which the replay format itself (replay/) does not. */
#ifndef JUDGE_VERIFY_REPLAY_VERIFY_H
#define JUDGE_VERIFY_REPLAY_VERIFY_H

#include "engine/strbuf.h"
#include "replay/replay.h"

struct replay_verify_report { int replies, lines; };
/* Rebuild the game from the header alone and feed it every recorded reply and
 * violation; compare what the engine gives with every recorded event,
 * violation and the result. 0 when all match; -1 with the first difference
 * ("FILE: line 57: recorded ... but the engine gives ...") or the reading
 * error. With log non-NULL, the engine writes its original log there. */
int replay_verify(const char *path, struct strbuf *log, struct replay_verify_report *rep,
                  struct replay_error *err);

/* `--format NAME`: "GAME-log" is the game's original log (engine set_log).
 * Writes to out_path (temporary name, fsync, rename) or, when out_path is
 * NULL, appends to *to_stdout. */
int replay_export(const char *path, const char *format, const char *out_path,
                  struct strbuf *to_stdout, struct replay_error *err);
#endif
