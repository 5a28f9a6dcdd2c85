/*
 * rerun.c - for every match configuration with a violation, a match file
 * (and its map) under OUT/rerun/, rebuilt from the replay header alone, so
 * that `judge run FILE --seed SEED` plays the match again. One file per
 * configuration: matches that differ only by seed share it.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/json_fields.h"
#include "ci/out_file.h"
#include "ci/results_internal.h"

/* The runner's own limits; the time and memory ones are game parameters, under params. */
static const char *const runner_limits[] = {"pids", "stderr_limit_kb", "grace_ms", "tmp_mb"};

static int put_int_mapping(struct strbuf *sb, const char *key, struct json_object *obj,
                           const char *const *only, size_t n_only)
{
    if (!obj || !json_object_is_type(obj, json_type_object))
        return 0;
    if (sb_printf(sb, "%s:\n", key) < 0)
        return -1;
    json_object_object_foreach(obj, name, value)
    {
        bool wanted = !only;
        for (size_t i = 0; i < n_only; i++)
            wanted = wanted || !strcmp(only[i], name);
        if (!wanted || !json_object_is_type(value, json_type_int))
            continue;
        if (sb_puts(sb, "  ") < 0 || esc_yaml(sb, name, strlen(name)) < 0 ||
            sb_printf(sb, ": %" PRId64 "\n", json_object_get_int64(value)) < 0)
            return -1;
    }
    return 0;
}

static int put_string_field(struct strbuf *sb, const char *indent, const char *key, struct json_object *o)
{
    size_t len;
    const char *s = jf_string(o, key, &len);
    if (!s)
        return 0;
    if (sb_printf(sb, "%s%s: ", indent, key) < 0 || esc_yaml(sb, s, len) < 0)
        return -1;
    return sb_putc(sb, '\n');
}

static int put_player(struct strbuf *sb, struct json_object *p)
{
    size_t n = 0;
    struct json_object *argv = jf_array(p, "command", &n);
    if (sb_puts(sb, "  - ") < 0 || put_string_field(sb, "", "name", p) < 0 ||
        sb_puts(sb, "    command: [") < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        struct json_object *w = json_object_array_get_idx(argv, i);
        const char *word = "";
        size_t len = 0;
        if (json_object_is_type(w, json_type_string)) {
            word = json_object_get_string(w);
            len = (size_t)json_object_get_string_len(w);
        }
        if ((i && sb_puts(sb, ", ") < 0) || esc_yaml(sb, word, len) < 0)
            return -1;
    }
    if (sb_puts(sb, "]\n") < 0 || put_string_field(sb, "    ", "dir", p) < 0)
        return -1;
    return put_string_field(sb, "    ", "profile", p);
}

/* `generate k=v ...` back into a generate: mapping. */
static int put_generate(struct strbuf *sb, const char *source)
{
    if (sb_puts(sb, "generate:\n") < 0)
        return -1;
    for (const char *p = source + strlen("generate"); *p;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " "), key_len = strcspn(p, "=");
        if (len && key_len < len &&
            (sb_puts(sb, "  ") < 0 || esc_yaml(sb, p, key_len) < 0 ||
             sb_printf(sb, ": %.*s\n", (int)(len - key_len - 1), p + key_len + 1) < 0))
            return -1;
        p += len;
    }
    return 0;
}

static int match_file_text(struct strbuf *sb, const struct match_record *m)
{
    struct json_object *h = m->header;
    size_t n = 0;
    struct json_object *players = jf_array(h, "players", &n);
    bool freeze = true;
    jf_bool(h, "freeze", &freeze);
    const char *isolation = jf_string(h, "isolation_mode", NULL);
    if (sb_puts(sb, "# Written by `judge results` from the header of ") < 0 ||
        esc_visible(sb, m->path, strlen(m->path)) < 0 ||
        sb_puts(sb,
                ".\n# Re-run one match: judge run THIS_FILE --seed SEED (the audit gives the command).\n") <
            0 ||
        sb_puts(sb, "game: ") < 0 || esc_yaml(sb, m->game, strlen(m->game)) < 0 || sb_putc(sb, '\n') < 0)
        return -1;
    int rc = 0;
    if (m->map_text && m->map_len)
        rc = sb_printf(sb, "map: %016" PRIx64 ".map\n", m->map.a);
    else if (m->map_source && !strncmp(m->map_source, "generate", 8))
        rc = put_generate(sb, m->map_source);
    if (rc < 0 || put_int_mapping(sb, "params", jf_member(h, "params"), NULL, 0) < 0 ||
        put_int_mapping(sb, "limits", jf_member(h, "limits"), runner_limits, 4) < 0 ||
        sb_puts(sb, "players:\n") < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (put_player(sb, json_object_array_get_idx(players, i)) < 0)
            return -1;
    if (isolation && (sb_puts(sb, "isolation: ") < 0 || esc_yaml(sb, isolation, strlen(isolation)) < 0 ||
                      sb_putc(sb, '\n') < 0))
        return -1;
    return sb_printf(sb, "freeze: %s\n", freeze ? "true" : "false");
}

/* The map file, shared by every configuration on that map. */
static int write_map(struct results *r, const struct match_record *m, struct ci_error *err)
{
    if (!m->map_text || !m->map_len)
        return 0;
    int added = keyset_add(r->reruns, m->map, 0, NULL);
    if (added <= 0)
        return added < 0 ? ci_fail_oom(err) : 0;
    char name[32];
    snprintf(name, sizeof name, "%016" PRIx64 ".map", m->map.a);
    return file_batch_put(r->rerun_files, name, m->map_text, m->map_len, err);
}

int rerun_prepare(struct results *r, const struct match_record *m, char hex[17], struct ci_error *err)
{
    snprintf(hex, 17, "%016" PRIx64, m->config.a);
    int added = keyset_add(r->reruns, m->config, 0, NULL);
    if (added <= 0)
        return added < 0 ? ci_fail_oom(err) : 0;
    if (write_map(r, m, err) < 0)
        return -1;
    char name[32];
    struct strbuf text = STRBUF_INIT;
    int rc = match_file_text(&text, m) < 0 ? ci_fail_oom(err) : 0;
    snprintf(name, sizeof name, "%s.yaml", hex);
    if (rc == 0)
        rc = file_batch_put(r->rerun_files, name, text.data, text.len, err);
    sb_free(&text);
    return rc;
}

int rerun_command(struct strbuf *sb, const struct results *r, const struct match_record *m, const char *hex)
{
    struct strbuf file = STRBUF_INIT, replay = STRBUF_INIT;
    int rc = sb_printf(&file, "%s/%s.yaml", r->rerun_dir, hex) < 0 ||
                     sb_printf(&replay, "%s/%s-%" PRIu64 ".jsonl.gz", r->rerun_dir, hex, m->seed) < 0 ||
                     sb_puts(sb, "judge run ") < 0 || esc_shell(sb, file.data, file.len) < 0 ||
                     sb_printf(sb, " --seed %" PRIu64 " --replay ", m->seed) < 0 ||
                     esc_shell(sb, replay.data, replay.len) < 0 ||
                     sb_puts(sb, " && judge replay verify ") < 0 || esc_shell(sb, replay.data, replay.len) < 0
                 ? -1
                 : 0;
    sb_free(&file);
    sb_free(&replay);
    return rc;
}
