/* json_emit.c - compact JSON text with sanitised strings (json_emit.h). */
#include "ci/json_emit.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>

static int emit_object(struct strbuf *sb, struct json_object *v)
{
    if (sb_putc(sb, '{') < 0)
        return -1;
    int first = 1;
    json_object_object_foreach(v, key, val)
    {
        if ((!first && sb_putc(sb, ',') < 0) || je_key(sb, key) < 0 || je_value(sb, val) < 0)
            return -1;
        first = 0;
    }
    return sb_putc(sb, '}');
}

static int emit_array(struct strbuf *sb, struct json_object *v)
{
    if (sb_putc(sb, '[') < 0)
        return -1;
    size_t n = json_object_array_length(v);
    for (size_t i = 0; i < n; i++)
        if ((i && sb_putc(sb, ',') < 0) || je_value(sb, json_object_array_get_idx(v, i)) < 0)
            return -1;
    return sb_putc(sb, ']');
}

int je_value(struct strbuf *sb, struct json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_object:
        return emit_object(sb, v);
    case json_type_array:
        return emit_array(sb, v);
    case json_type_string:
        return sb_json_string(sb, json_object_get_string(v), (size_t)json_object_get_string_len(v));
    case json_type_null:
        return sb_puts(sb, "null");
    default:
        return sb_puts(sb, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
    }
}

int je_key(struct strbuf *sb, const char *key)
{
    if (sb_json_string(sb, key, strlen(key)) < 0)
        return -1;
    return sb_putc(sb, ':');
}

int je_str(struct strbuf *sb, const char *key, const char *s, size_t n)
{
    if (key && je_key(sb, key) < 0)
        return -1;
    return s ? sb_json_string(sb, s, n) : sb_puts(sb, "null");
}

int je_cstr(struct strbuf *sb, const char *key, const char *s)
{
    return je_str(sb, key, s, s ? strlen(s) : 0);
}

int je_i64(struct strbuf *sb, const char *key, int64_t v)
{
    if (key && je_key(sb, key) < 0)
        return -1;
    return sb_printf(sb, "%" PRId64, v);
}

int je_u64(struct strbuf *sb, const char *key, uint64_t v)
{
    if (key && je_key(sb, key) < 0)
        return -1;
    return sb_printf(sb, "%" PRIu64, v);
}

int je_double(struct strbuf *sb, const char *key, double v, int decimals)
{
    if (key && je_key(sb, key) < 0)
        return -1;
    if (!isfinite(v))
        return sb_puts(sb, "null");
    return sb_printf(sb, "%.*f", decimals, v);
}

int je_bool(struct strbuf *sb, const char *key, int v)
{
    if (key && je_key(sb, key) < 0)
        return -1;
    return sb_puts(sb, v ? "true" : "false");
}

void jo_begin(struct json_obj *o, struct strbuf *sb)
{
    *o = (struct json_obj){sb, 0, sb_putc(sb, '{') < 0};
}

void jo_key(struct json_obj *o, const char *key)
{
    if ((o->fields++ && sb_putc(o->sb, ',') < 0) || je_key(o->sb, key) < 0)
        o->bad = 1;
}

void jo_str(struct json_obj *o, const char *key, const char *s, size_t n)
{
    jo_key(o, key);
    if (je_str(o->sb, NULL, s, n) < 0)
        o->bad = 1;
}

void jo_cstr(struct json_obj *o, const char *key, const char *s)
{
    jo_str(o, key, s, s ? strlen(s) : 0);
}

void jo_i64(struct json_obj *o, const char *key, int64_t v)
{
    jo_key(o, key);
    if (je_i64(o->sb, NULL, v) < 0)
        o->bad = 1;
}

void jo_u64(struct json_obj *o, const char *key, uint64_t v)
{
    jo_key(o, key);
    if (je_u64(o->sb, NULL, v) < 0)
        o->bad = 1;
}

void jo_double(struct json_obj *o, const char *key, double v, int decimals)
{
    jo_key(o, key);
    if (je_double(o->sb, NULL, v, decimals) < 0)
        o->bad = 1;
}

void jo_bool(struct json_obj *o, const char *key, int v)
{
    jo_key(o, key);
    if (je_bool(o->sb, NULL, v) < 0)
        o->bad = 1;
}

void jo_value(struct json_obj *o, const char *key, struct json_object *v)
{
    jo_key(o, key);
    if ((v ? je_value(o->sb, v) : sb_puts(o->sb, "null")) < 0)
        o->bad = 1;
}

int jo_end(struct json_obj *o)
{
    if (sb_putc(o->sb, '}') < 0)
        o->bad = 1;
    return o->bad ? -1 : 0;
}
