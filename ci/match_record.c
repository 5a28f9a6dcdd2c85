/* match_record.c - one replay's header, result and violations, checked as they are read (match_record.h). */
#include "ci/match_record.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/json_fields.h"
#include "ci/violation_text.h"

static void hash_text(struct key128 *h, const char *s, size_t n)
{
    key128_add_u64(h, s ? n : UINT64_MAX);
    if (s)
        key128_add(h, s, n);
}

static void hash_json(struct key128 *h, struct json_object *v);

/* A value json-c might print in more than one way for one meaning, or not at all: by its JSON text. */
static void hash_text_of(struct key128 *h, struct json_object *v)
{
    const char *text = v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : NULL;
    key128_add(h, "j", 1);
    hash_text(h, text, text ? strlen(text) : 0);
}

static void hash_array(struct key128 *h, struct json_object *a)
{
    size_t n = json_object_array_length(a);
    key128_add(h, "a", 1);
    key128_add_u64(h, n);
    for (size_t i = 0; i < n; i++)
        hash_json(h, json_object_array_get_idx(a, i));
}

/* Its members in the order they were written, as its JSON text would have them. */
static void hash_members_in_order(struct key128 *h, struct json_object *o)
{
    key128_add(h, "o", 1);
    key128_add_u64(h, (uint64_t)json_object_object_length(o));
    json_object_object_foreach(o, key, member) {
        hash_text(h, key, strlen(key));
        hash_json(h, member);
    }
}

/* A value by its structure, a tag for each kind keeping them apart: printing the header's
 * objects to JSON text to hash it cost more than the rest of reading the header. */
static void hash_json(struct key128 *h, struct json_object *v)
{
    int64_t i;
    switch (json_object_get_type(v)) {
    case json_type_string:
        key128_add(h, "s", 1);
        hash_text(h, json_object_get_string(v), (size_t)json_object_get_string_len(v));
        return;
    case json_type_int:
        i = json_object_get_int64(v);
        if (i == INT64_MAX) /* or any larger unsigned value json-c clamps to it */
            break;
        key128_add(h, "i", 1);
        key128_add_u64(h, (uint64_t)i);
        return;
    case json_type_boolean:
        key128_add(h, json_object_get_boolean(v) ? "T" : "F", 1);
        return;
    case json_type_array:
        hash_array(h, v);
        return;
    case json_type_object:
        hash_members_in_order(h, v);
        return;
    default: /* null, and doubles */
        break;
    }
    hash_text_of(h, v);
}

static void hash_member(struct key128 *h, struct json_object *o, const char *key)
{
    hash_json(h, jf_member(o, key));
}

/* Header members that say when and where a match ran, not what was played:
 * left out of its identity. A player's "dir" is a host path too. */
static bool host_fact(const char *key)
{
    static const char *const facts[] = {"timing", "kernel", "cpu_model", "isolation", "map_source"};
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        if (!strcmp(key, facts[i]))
            return true;
    return false;
}

static int compare_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every member of o but those skip() names, in key order: the same members
 * hash alike whatever order a writer put them in. */
static void hash_object(struct key128 *h, struct json_object *o, bool (*skip)(const char *key),
                        void (*value)(struct key128 *h, const char *key, struct json_object *v))
{
    const char *keys[64];
    size_t n = 0;
    json_object_object_foreach(o, key, v) {
        (void)v;
        if (n < sizeof keys / sizeof keys[0] && !skip(key))
            keys[n++] = key;
    }
    qsort(keys, n, sizeof keys[0], compare_keys);
    key128_add_u64(h, n);
    for (size_t i = 0; i < n; i++) {
        hash_text(h, keys[i], strlen(keys[i]));
        value(h, keys[i], jf_member(o, keys[i]));
    }
}

static bool player_host_fact(const char *key)
{
    return !strcmp(key, "dir");
}

static void hash_value(struct key128 *h, const char *key, struct json_object *v)
{
    (void)key;
    hash_json(h, v);
}

static void hash_header_value(struct key128 *h, const char *key, struct json_object *v)
{
    if (strcmp(key, "players") != 0 || !json_object_is_type(v, json_type_array)) {
        hash_value(h, key, v);
        return;
    }
    size_t n = json_object_array_length(v);
    key128_add_u64(h, n);
    for (size_t i = 0; i < n; i++) {
        struct json_object *p = json_object_array_get_idx(v, i);
        if (json_object_is_type(p, json_type_object))
            hash_object(h, p, player_host_fact, hash_value);
        else
            hash_value(h, key, p);
    }
}

static void compute_keys(struct match_record *m)
{
    struct key128 id = KEY128_INIT, cfg = KEY128_INIT;
    /* Everything that can change the outcome: the whole header but when and where it ran. */
    hash_object(&id, m->header, host_fact, hash_header_value);
    m->identity = key128_finish(id);

    static const char *const config_keys[] = {"game",   "map",     "map_source",     "params",
                                              "limits", "players", "isolation_mode", "freeze"};
    for (size_t i = 0; i < sizeof config_keys / sizeof config_keys[0]; i++)
        hash_member(&cfg, m->header, config_keys[i]);
    m->config = key128_finish(cfg);
    struct key128 map = KEY128_INIT;
    key128_add(&map, "map", 4);
    hash_text(&map, m->map_text, m->map_len);
    m->map = key128_finish(map);
}

static bool same_name(const struct mr_seat *a, const struct mr_seat *b)
{
    return a->name_len == b->name_len && !memcmp(a->name, b->name, a->name_len);
}

static int read_players(struct match_record *m, struct ci_error *err)
{
    size_t n;
    struct json_object *players = jf_array(m->header, "players", &n);
    if (!players || n < 1)
        return ci_fail_damaged(err, "the header has no players");
    if (n > MR_MAX_PLAYERS)
        return ci_fail_damaged(err, "the header has %zu players (at most %d)", n, MR_MAX_PLAYERS);
    m->n = (int)n;
    for (int i = 0; i < m->n; i++) {
        struct mr_seat *s = &m->seats[i];
        struct json_object *entry = json_object_array_get_idx(players, (size_t)i);
        s->name = jf_string(entry, "name", &s->name_len);
        if (!jf_bool(entry, "reference", &s->reference))
            s->reference = false;
        if (!s->name || !s->name_len)
            return ci_fail_damaged(err, "header: player %d has no name", i + 1);
        for (int j = 0; j < i; j++)
            if (same_name(&m->seats[j], s))
                return ci_fail_damaged(err, "header: players %d and %d have the same name", j + 1, i + 1);
    }
    return 0;
}

/* The optional tournament match id: a string or an integer, kept as its text. */
static int read_match_id(struct match_record *m, struct ci_error *err)
{
    struct json_object *id = jf_member(m->header, "match_id");
    if (!id || json_object_is_type(id, json_type_null))
        return 0;
    if (json_object_is_type(id, json_type_string))
        m->match_id = json_object_get_string(id);
    else if (json_object_is_type(id, json_type_int))
        m->match_id = json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN);
    else
        return ci_fail_damaged(err, "header: match_id is neither a string nor an integer");
    return 0;
}

int mr_header(struct match_record *m, struct json_object *header, const char *path, struct ci_error *err)
{
    memset(m, 0, sizeof *m);
    m->header = json_object_get(header);
    m->path = path;
    const char *format = jf_string(header, "format", NULL);
    int64_t version = 0;
    if (!format || strcmp(format, "judge-replay") || !jf_int(header, "version", &version) || version != 1)
        return ci_fail_damaged(err, "not a judge-replay version 1 header");
    m->game = jf_string(header, "game", NULL);
    if (!m->game || !*m->game)
        return ci_fail_damaged(err, "the header has no game");
    if (!jf_uint(header, "seed", &m->seed))
        return ci_fail_damaged(err, "the header has no seed");
    m->map_text = jf_string(header, "map", &m->map_len);
    m->map_source = jf_string(header, "map_source", NULL);
    if (read_players(m, err) < 0 || read_match_id(m, err) < 0)
        return -1;
    compute_keys(m);
    return 0;
}

int mr_violation(const struct match_record *m, struct json_object *line, struct mr_violation *out,
                 struct ci_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t player = 0;
    if (!jf_int(line, "player", &player) || player < 1 || player > m->n)
        return ci_fail_damaged(err, "violation: no player between 1 and %d", m->n);
    out->player = (int)player;
    out->kind = jf_string(line, "kind", NULL);
    out->verdict = jf_string(line, "verdict", NULL);
    if (!out->kind || !out->verdict)
        return ci_fail_damaged(err, "violation: no kind or verdict");
    jf_int(line, "round", &out->round);
    jf_int(line, "reply", &out->reply);
    out->by = jf_string(line, "by", NULL);
    out->evidence = jf_member(line, "evidence");
    if (out->evidence && !json_object_is_type(out->evidence, json_type_object))
        out->evidence = NULL;
    out->stderr_tail = jf_string(line, "stderr_tail", &out->stderr_len);
    return 0;
}

static int read_result_player(struct mr_seat *s, int p, struct json_object *o, struct ci_error *err)
{
    int64_t place = 0, number = p;
    const char *verdict = jf_string(o, "verdict", NULL);
    if (!jf_int(o, "place", &place) || place < 1 || !jf_int(o, "points", &s->points) || !verdict)
        return ci_fail_damaged(err, "result: player %d has no place, points or verdict", p);
    if (jf_member(o, "player") && (!jf_int(o, "player", &number) || number != p))
        return ci_fail_damaged(err, "result: players are not in player order");
    s->place = (int)(place > MR_MAX_PLAYERS ? MR_MAX_PLAYERS : place);
    snprintf(s->verdict, sizeof s->verdict, "%s", verdict);
    jf_int(o, "moves", &s->moves);
    jf_uint(o, "cpu_ns", &s->cpu_ns);
    jf_uint(o, "memory_peak_bytes", &s->memory_peak_bytes);
    return 0;
}

int mr_result(struct match_record *m, struct json_object *line, struct ci_error *err)
{
    size_t n;
    struct json_object *players = jf_array(line, "players", &n);
    if (!players || n != (size_t)m->n)
        return ci_fail_damaged(err, "result: %zu players where the header has %d", players ? n : 0, m->n);
    for (int i = 0; i < m->n; i++)
        if (read_result_player(&m->seats[i], i + 1, json_object_array_get_idx(players, (size_t)i), err) < 0)
            return -1;
    jf_int(line, "rounds", &m->rounds);
    m->has_result = true;
    return 0;
}

void mr_free(struct match_record *m)
{
    for (int i = 0; i < MR_MAX_PLAYERS; i++) {
        sb_free(&m->seats[i].first_violation);
        sb_free(&m->seats[i].first_stderr);
    }
    json_object_put(m->header);
    m->header = NULL;
}

int mr_map_label(struct strbuf *sb, const struct match_record *m)
{
    const char *src = m->map_source;
    if (!src || !*src)
        return sb_puts(sb, "map");
    if (strncmp(src, "generate", 8))
        return sb_puts(sb, strrchr(src, '/') ? strrchr(src, '/') + 1 : src);
    if (!m->map_len) /* a game without a map (sea battle, warlight) */
        return sb_puts(sb, "no map");
    const char *settings = src + 8 + strspn(src + 8, " ");
    return sb_puts(sb, *settings ? "generated map " : "generated map") < 0 ? -1 : sb_puts(sb, settings);
}

int mr_note_violation(struct match_record *m, const struct mr_violation *v, struct ci_error *err)
{
    struct mr_seat *s = &m->seats[v->player - 1];
    s->violations[ci_kind_of(v->kind)]++;
    if (s->violation_total++)
        return 0;
    snprintf(s->first_kind, sizeof s->first_kind, "%s", v->kind);
    size_t len;
    const char *tail = vt_stderr_tail(v, &len);
    if (vt_one_line(&s->first_violation, v) < 0 || sb_append(&s->first_stderr, tail, len) < 0)
        return ci_fail_oom(err);
    return 0;
}
