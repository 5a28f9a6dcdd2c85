/*
 * match_raw_reply.h - a reply read as raw bytes, for games that judge the
 * bytes themselves (game.h submit_output): everything up to and including
 * the n-th "\n", of which at most `cap` bytes are kept (the rest is read and
 * thrown away); bytes after it stay in the channel for the next reply, since
 * a bot's output is one stream. Private to the match runner.
 */
#ifndef JUDGE_MATCH_RAW_REPLY_H
#define JUDGE_MATCH_RAW_REPLY_H

#include <stddef.h>

#include "engine/strbuf.h"
#include "judge/match/bot_channel.h"
#include "judge/match/match.h"

enum raw_reply_status { RAW_REPLY_NONE, RAW_REPLY_COMPLETE, RAW_REPLY_EOF, RAW_REPLY_ERROR };

struct raw_reply {
    size_t cap;
    int newlines_left;    /* "\n" still to come */
};

/* Bytes kept of one reply: the game's max_output_bytes + 1 (max_line_bytes + 1 without one). */
size_t raw_reply_cap(const struct match_setup *s);

void raw_reply_begin(struct raw_reply *r, size_t cap, int lines);
/* Append to text what the channel has: COMPLETE once the last "\n" arrived, EOF when
 * stdout closed first, NONE when the pipe is empty for now, ERROR (errno set)
 * when read() failed or memory ran out. */
enum raw_reply_status raw_reply_read(struct bot_channel *ch, struct raw_reply *r, struct strbuf *text);

#endif
