/*
 * match_raw_reply.c - raw replies over a bot_channel: consumes its read
 * buffer (the same one bot_channel_read_line uses, so line and raw replies
 * could share a stream) and refills it from stdout.
 */
#include <errno.h>
#include <string.h>

#include "judge/match/match_raw_reply.h"

size_t raw_reply_cap(const struct match_setup *s)
{
    int64_t max = game_param_index(s->rules, "max_output_bytes") >= 0
                      ? game_param(s->rules, s->params, "max_output_bytes")
                      : (int64_t)s->limits.max_line_bytes;
    return (size_t)(max > 0 ? max : 0) + 1;
}

void raw_reply_begin(struct raw_reply *r, size_t cap, int lines)
{
    r->cap = cap;
    r->newlines_left = lines > 0 ? lines : 1;
}

/* Take bytes from the buffer up to the reply's last "\n"; true when it came. */
static bool take(struct bot_channel *ch, struct raw_reply *r, struct strbuf *text, int *failed)
{
    const char *start = ch->raw + ch->raw_pos;
    size_t avail = ch->raw_len - ch->raw_pos, n = 0;
    while (n < avail && r->newlines_left > 0)
        if (start[n++] == '\n')
            r->newlines_left--;
    size_t keep = text->len < r->cap ? r->cap - text->len : 0;
    if (keep > n)
        keep = n;
    if (keep && sb_append(text, start, keep) < 0) {
        errno = ENOMEM;
        *failed = 1;
    }
    ch->raw_pos += n;
    return r->newlines_left == 0;
}

enum raw_reply_status raw_reply_read(struct bot_channel *ch, struct raw_reply *r, struct strbuf *text)
{
    for (;;) {
        int failed = 0;
        if (ch->raw_pos < ch->raw_len && take(ch, r, text, &failed))
            return failed ? RAW_REPLY_ERROR : RAW_REPLY_COMPLETE;
        if (failed)
            return RAW_REPLY_ERROR;
        int got = bot_channel_refill(ch);
        if (got == 0)
            return RAW_REPLY_NONE;
        if (got == -1)
            return RAW_REPLY_EOF;
        if (got == -2)
            return RAW_REPLY_ERROR;
    }
}
