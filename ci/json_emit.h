/*
 * json_emit.h - writing JSON text. Strings always go through sb_json_string
 * (engine/strbuf.h), so what a bot sent (invalid UTF-8, control bytes) comes
 * out as valid JSON; json-c would copy invalid UTF-8 through unchanged.
 */
#ifndef CI_JSON_EMIT_H
#define CI_JSON_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"

struct json_object;

/* Any parsed value, re-written compactly with every string sanitised. */
int je_value(struct strbuf *sb, struct json_object *v);
/* `"key":` then a value; each returns 0 or -1 (out of memory). */
int je_key(struct strbuf *sb, const char *key);
int je_str(struct strbuf *sb, const char *key, const char *s, size_t n); /* s NULL: null */
int je_cstr(struct strbuf *sb, const char *key, const char *s);          /* s NULL: null */
int je_i64(struct strbuf *sb, const char *key, int64_t v);
int je_u64(struct strbuf *sb, const char *key, uint64_t v);
int je_double(struct strbuf *sb, const char *key, double v, int decimals);
int je_bool(struct strbuf *sb, const char *key, int v);

/* An object written field by field: the commas are placed, and the first failure (out of
 * memory) is remembered, so a writer is a list of calls and one check at jo_end. */
struct json_obj {
    struct strbuf *sb;
    int fields, bad;
};
void jo_begin(struct json_obj *o, struct strbuf *sb);
void jo_str(struct json_obj *o, const char *key, const char *s, size_t n); /* s NULL: null */
void jo_cstr(struct json_obj *o, const char *key, const char *s);          /* s NULL: null */
void jo_i64(struct json_obj *o, const char *key, int64_t v);
void jo_u64(struct json_obj *o, const char *key, uint64_t v);
void jo_double(struct json_obj *o, const char *key, double v, int decimals); /* NaN: null */
void jo_bool(struct json_obj *o, const char *key, int v);
void jo_value(struct json_obj *o, const char *key, struct json_object *v); /* NULL: null */
/* The key, then the caller appends the value to o->sb itself (setting o->bad on failure). */
void jo_key(struct json_obj *o, const char *key);
int jo_end(struct json_obj *o); /* 0, or -1 when any call failed */

#endif
