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

/* Verifies as replay_verify does and, before feeding each recorded input (a reply, or a
 * violation the judge found), tells fn the prompt the engine gives that player then: input
 * counts those inputs from 1; the state is the one after input - 1. fn returns 0, or -1 to stop. */
typedef int replay_prompt_fn(void *ctx, int input, int player, int round, const char *prompt, size_t len);
int replay_prompts(const char *path, replay_prompt_fn *fn, void *ctx, struct replay_error *err);

/* `--format NAME`: "GAME-log" is the game's original log (engine set_log).
 * Writes to out_path (temporary name, fsync, rename) or, when out_path is
 * NULL, appends to *to_stdout. */
int replay_export(const char *path, const char *format, const char *out_path,
                  struct strbuf *to_stdout, struct replay_error *err);
#endif
