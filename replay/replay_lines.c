/* replay_lines.c - the replay lines that need nothing of a match (reply, event)
 * and the key/value writers every line is built with (docs/replay-format.md). */
#include <inttypes.h>
#include <string.h>

#include "replay/replay.h"

/* Every sb_* call returns 0 or -1; chain them and keep the first failure. */
#define PUT(expr)             \
    do {                      \
        if ((expr) < 0)       \
            return -1;        \
    } while (0)

static int put_str(struct strbuf *sb, const char *s)
{
    return s ? sb_json_string(sb, s, strlen(s)) : sb_puts(sb, "null");
}

int replay_put_key(struct strbuf *sb, const char *key)
{
    if (sb->len > 0 && sb->data[sb->len - 1] != '{' && sb->data[sb->len - 1] != '[')
        PUT(sb_putc(sb, ','));
    PUT(sb_json_string(sb, key, strlen(key)));
    return sb_putc(sb, ':');
}

int replay_put_kv_str(struct strbuf *sb, const char *key, const char *v)
{
    PUT(replay_put_key(sb, key));
    return put_str(sb, v);
}

int replay_put_kv_i64(struct strbuf *sb, const char *key, int64_t v)
{
    PUT(replay_put_key(sb, key));
    return sb_put_i64(sb, v);
}

int replay_put_kv_u64(struct strbuf *sb, const char *key, uint64_t v)
{
    PUT(replay_put_key(sb, key));
    return sb_printf(sb, "%" PRIu64, v);
}

int replay_put_kv_bool(struct strbuf *sb, const char *key, bool v)
{
    PUT(replay_put_key(sb, key));
    return sb_puts(sb, v ? "true" : "false");
}

int replay_record_reply(struct strbuf *sb, const struct replay_reply *r)
{
    PUT(sb_putc(sb, '{'));
    PUT(replay_put_kv_str(sb, "type", "reply"));
    PUT(replay_put_kv_i64(sb, "n", r->n));
    PUT(replay_put_kv_i64(sb, "player", r->player));
    PUT(replay_put_kv_i64(sb, "round", r->round));
    PUT(replay_put_kv_i64(sb, "reply", r->reply));
    PUT(replay_put_key(sb, "line"));
    PUT(sb_json_string(sb, r->line, r->len));
    PUT(replay_put_kv_u64(sb, "cpu_ns", r->cpu_ns));
    PUT(replay_put_kv_u64(sb, "wall_ns", r->wall_ns));
    return sb_putc(sb, '}');
}

int replay_record_event(struct strbuf *sb, const char *engine_json, size_t len)
{
    PUT(sb_puts(sb, "{\"type\":\"event\",\"event\":"));
    PUT(sb_append(sb, engine_json, len));
    return sb_putc(sb, '}');
}

