/* compile_read.c - a `judge compile` record (compile_read.h). */
#include "ci/compile_read.h"

#include <json-c/json.h>
#include <string.h>

#include "ci/json_fields.h"

static struct json_object *parse(const char *text, size_t len)
{
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return NULL;
    struct json_object *obj = json_tokener_parse_ex(tok, text, (int)len);
    if (json_tokener_get_error(tok) != json_tokener_success || json_tokener_get_parse_end(tok) != len) {
        json_object_put(obj);
        obj = NULL;
    }
    json_tokener_free(tok);
    return obj;
}

int ci_compile_parse(const char *text, size_t len, struct ci_compile *c, struct ci_error *err)
{
    memset(c, 0, sizeof *c);
    if (len > (1u << 30))
        return 0;
    struct json_object *obj = parse(text, len);
    const char *type = jf_string(obj, "type", NULL);
    if (!type || (strcmp(type, "compile") && strcmp(type, "smoke"))) {
        json_object_put(obj);
        return 0;
    }
    c->obj = obj;
    c->smoke = !strcmp(type, "smoke");
    const char *format = jf_string(obj, "format", NULL), *want = c->smoke ? "judge-smoke" : "judge-compile";
    int64_t version = 0;
    if (!format || strcmp(format, want) || !jf_int(obj, "version", &version) || version != 1)
        return ci_fail_damaged(err, "not a %s version 1 record", want);
    c->player = jf_string(obj, "player", &c->player_len);
    c->verdict = jf_string(obj, "verdict", NULL);
    if (!c->player || !c->player_len || !c->verdict || !*c->verdict)
        return ci_fail_damaged(err, "the compile record has no player or verdict");
    c->profile = jf_string(obj, "profile", NULL);
    c->source = jf_string(obj, "source", NULL);
    c->messages = jf_string(obj, c->smoke ? "stderr_tail" : "messages", &c->messages_len);
    c->reason = jf_string(obj, "reason", NULL);
    c->match_id = jf_string(obj, "match_id", NULL);
    c->has_exit_code = jf_int(obj, "exit_code", &c->exit_code);
    jf_uint(obj, "cpu_ns", &c->cpu_ns);
    jf_uint(obj, "wall_ns", &c->wall_ns);
    struct key128 h = KEY128_INIT;
    key128_add(&h, c->smoke ? "smoke" : "compile", c->smoke ? 6 : 8);
    key128_add(&h, c->player, c->player_len);
    c->identity = key128_finish(h);
    key128_add(&h, "outcome", 7);
    key128_add(&h, c->verdict, strlen(c->verdict));
    key128_add_u64(&h, c->has_exit_code ? (uint64_t)c->exit_code : UINT64_MAX);
    if (c->messages)
        key128_add(&h, c->messages, c->messages_len);
    if (c->reason)
        key128_add(&h, c->reason, strlen(c->reason));
    c->outcome = key128_finish(h);
    return 1;
}

void ci_compile_free(struct ci_compile *c)
{
    json_object_put(c->obj);
    c->obj = NULL;
}

bool ci_compile_failed(const struct ci_compile *c)
{
    return strcmp(c->verdict, "OK") != 0;
}
