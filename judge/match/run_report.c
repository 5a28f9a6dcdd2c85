/* run_report.c - a jail_report to and from its JSON object, and its atomic write. */
#include "judge/match/run_report.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- writing -------------------------------------------------------------- */

/* Adds v under key; on any failure (v NULL from an allocation, or the add) frees v. */
static bool put(struct json_object *obj, const char *key, struct json_object *v)
{
    if (!v)
        return false;
    if (json_object_object_add(obj, key, v) != 0) {
        json_object_put(v);
        return false;
    }
    return true;
}

static bool append(struct json_object *array, struct json_object *v)
{
    if (!v)
        return false;
    if (json_object_array_add(array, v) != 0) {
        json_object_put(v);
        return false;
    }
    return true;
}

static struct json_object *how_to_json(const struct isolation_report *iso)
{
    struct json_object *how = json_object_new_object();
    if (!how)
        return NULL;
    for (int l = 0; l < LAYER_COUNT; l++) {
        if (iso->state[l] == LAYER_ON)
            continue;
        if (!put(how, jail_layer_name(l), json_object_new_string(iso->how[l]))) {
            json_object_put(how);
            return NULL;
        }
    }
    return how;
}

struct json_object *isolation_report_to_json(const struct isolation_report *iso)
{
    struct json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    bool ok = true;
    for (int l = 0; l < LAYER_COUNT && ok; l++)
        ok = put(o, jail_layer_name(l), json_object_new_string(layer_state_name(iso->state[l])));
    ok = ok && put(o, "cgroup", json_object_new_string(iso->cgroup_backend));
    ok = ok && put(o, "privileged", json_object_new_boolean(iso->privileged));
    ok = ok && put(o, "degraded", json_object_new_boolean(iso->degraded));
    ok = ok && put(o, "how", how_to_json(iso));
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

static struct json_object *syscall_to_json(const struct jail_syscall *sc)
{
    struct json_object *o = json_object_new_object();
    struct json_object *args = json_object_new_array_ext(6);
    bool ok = o && args;
    for (int i = 0; i < 6 && ok; i++)
        ok = append(args, json_object_new_uint64(sc->args[i]));
    ok = ok && put(o, "name", json_object_new_string(sc->name));
    ok = ok && put(o, "arch", json_object_new_string(sc->arch));
    ok = ok && put(o, "nr", json_object_new_int(sc->nr));
    if (ok && put(o, "args", args))
        return o;
    if (!ok)
        json_object_put(args);
    json_object_put(o);
    return NULL;
}

struct json_object *run_report_to_json(const struct jail_report *r)
{
    struct json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    bool ok = put(o, "verdict", json_object_new_string(jail_verdict_name(r->verdict)));
    ok = ok && put(o, "exit_code", json_object_new_int(r->exit_code));
    ok = ok && put(o, "signal", json_object_new_int(r->signal));
    ok = ok && put(o, "cpu_ns", json_object_new_uint64(r->cpu_ns));
    ok = ok && put(o, "wall_ns", json_object_new_uint64(r->wall_ns));
    ok = ok && put(o, "memory_peak_bytes", json_object_new_uint64(r->memory_peak_bytes));
    ok = ok && put(o, "rss_peak_bytes", json_object_new_uint64(r->rss_peak_bytes));
    if (ok && r->has_syscall)
        ok = put(o, "syscall", syscall_to_json(&r->syscall));
    else if (ok)
        ok = json_object_object_add(o, "syscall", NULL) == 0;
    ok = ok && put(o, "isolation", isolation_report_to_json(&r->isolation));
    ok = ok && put(o, "note", json_object_new_string(r->note));
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

char *run_report_format(const struct jail_report *r)
{
    struct json_object *o = run_report_to_json(r);
    if (!o)
        return NULL;
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    char *line = NULL;
    if (text && asprintf(&line, "%s\n", text) < 0)
        line = NULL;
    json_object_put(o);
    return line;
}

/* ---- reading -------------------------------------------------------------- */

static int fail(struct jail_error *err, const char *fmt, const char *what)
{
    snprintf(err->msg, sizeof err->msg, fmt, what);
    return -1;
}

static int get_typed(const struct json_object *obj, const char *key, enum json_type type,
                     struct json_object **out, struct jail_error *err)
{
    if (!json_object_object_get_ex(obj, key, out))
        return fail(err, "report: missing key \"%s\"", key);
    if (!json_object_is_type(*out, type))
        return fail(err, "report: key \"%s\" has the wrong type", key);
    return 0;
}

static int get_string(const struct json_object *obj, const char *key, char *dst, size_t size,
                      struct jail_error *err)
{
    struct json_object *v;
    if (get_typed(obj, key, json_type_string, &v, err) < 0)
        return -1;
    if ((size_t)json_object_get_string_len(v) >= size)
        return fail(err, "report: \"%s\" is too long", key);
    memcpy(dst, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
    return 0;
}

static int get_int(const struct json_object *obj, const char *key, int *dst, struct jail_error *err)
{
    struct json_object *v;
    if (get_typed(obj, key, json_type_int, &v, err) < 0)
        return -1;
    errno = 0;
    int64_t n = json_object_get_int64(v);
    if (errno || n < INT_MIN || n > INT_MAX)
        return fail(err, "report: \"%s\" is out of range", key);
    *dst = (int)n;
    return 0;
}

static int get_u64(const struct json_object *obj, const char *key, uint64_t *dst, struct jail_error *err)
{
    struct json_object *v;
    if (get_typed(obj, key, json_type_int, &v, err) < 0)
        return -1;
    if (json_object_get_int64(v) < 0)
        return fail(err, "report: \"%s\" is negative", key);
    *dst = json_object_get_uint64(v);
    return 0;
}

static int get_bool(const struct json_object *obj, const char *key, bool *dst, struct jail_error *err)
{
    struct json_object *v;
    if (get_typed(obj, key, json_type_boolean, &v, err) < 0)
        return -1;
    *dst = json_object_get_boolean(v);
    return 0;
}

static int parse_layer_state(const char *text, enum layer_state *out)
{
    for (int s = LAYER_ON; s <= LAYER_OFF; s++)
        if (!strcmp(text, layer_state_name(s))) {
            *out = s;
            return 0;
        }
    return -1;
}

static int layers_from_json(const struct json_object *obj, struct isolation_report *iso,
                            struct jail_error *err)
{
    struct json_object *how;
    if (get_typed(obj, "how", json_type_object, &how, err) < 0)
        return -1;
    for (int l = 0; l < LAYER_COUNT; l++) {
        const char *name = jail_layer_name(l);
        char state[16];
        if (get_string(obj, name, state, sizeof state, err) < 0)
            return -1;
        if (parse_layer_state(state, &iso->state[l]) < 0)
            return fail(err, "report: layer \"%s\" is not on, degraded or off", name);
        iso->how[l][0] = '\0';
        if (iso->state[l] != LAYER_ON && get_string(how, name, iso->how[l], sizeof iso->how[l], err) < 0)
            return -1;
    }
    return 0;
}

int isolation_report_from_json(const struct json_object *obj, struct isolation_report *iso,
                               struct jail_error *err)
{
    memset(iso, 0, sizeof *iso);
    if (!json_object_is_type(obj, json_type_object))
        return fail(err, "report: %s is not a JSON object", "isolation");
    if (layers_from_json(obj, iso, err) < 0 ||
        get_string(obj, "cgroup", iso->cgroup_backend, sizeof iso->cgroup_backend, err) < 0 ||
        get_bool(obj, "privileged", &iso->privileged, err) < 0 ||
        get_bool(obj, "degraded", &iso->degraded, err) < 0)
        return -1;
    return 0;
}

static int syscall_from_json(const struct json_object *obj, struct jail_syscall *sc, struct jail_error *err)
{
    struct json_object *args;
    if (get_string(obj, "name", sc->name, sizeof sc->name, err) < 0 ||
        get_string(obj, "arch", sc->arch, sizeof sc->arch, err) < 0 ||
        get_int(obj, "nr", &sc->nr, err) < 0 ||
        get_typed(obj, "args", json_type_array, &args, err) < 0)
        return -1;
    if (json_object_array_length(args) != 6)
        return fail(err, "report: \"%s\" must hold 6 numbers", "args");
    for (size_t i = 0; i < 6; i++) {
        struct json_object *a = json_object_array_get_idx(args, i);
        if (!json_object_is_type(a, json_type_int) || json_object_get_int64(a) < 0)
            return fail(err, "report: \"%s\" must hold 6 non-negative numbers", "args");
        sc->args[i] = json_object_get_uint64(a);
    }
    return 0;
}

static int verdict_from_json(const struct json_object *obj, struct jail_report *r, struct jail_error *err)
{
    char name[32];
    if (get_string(obj, "verdict", name, sizeof name, err) < 0)
        return -1;
    if (jail_verdict_parse(name, &r->verdict) < 0)
        return fail(err, "report: unknown verdict \"%s\"", name);
    return 0;
}

int run_report_from_json(const struct json_object *obj, struct jail_report *r, struct jail_error *err)
{
    memset(r, 0, sizeof *r);
    struct json_object *sc, *iso;
    if (!json_object_is_type(obj, json_type_object))
        return fail(err, "report: %s is not a JSON object", "the report");
    if (verdict_from_json(obj, r, err) < 0 ||
        get_int(obj, "exit_code", &r->exit_code, err) < 0 ||
        get_int(obj, "signal", &r->signal, err) < 0 ||
        get_u64(obj, "cpu_ns", &r->cpu_ns, err) < 0 ||
        get_u64(obj, "wall_ns", &r->wall_ns, err) < 0 ||
        get_u64(obj, "memory_peak_bytes", &r->memory_peak_bytes, err) < 0 ||
        get_string(obj, "note", r->note, sizeof r->note, err) < 0)
        return -1;
    if (!json_object_object_get_ex(obj, "syscall", &sc))
        return fail(err, "report: missing key \"%s\"", "syscall");
    r->has_syscall = sc != NULL;
    if (sc && !json_object_is_type(sc, json_type_object))
        return fail(err, "report: \"%s\" must be null or an object", "syscall");
    if (sc && syscall_from_json(sc, &r->syscall, err) < 0)
        return -1;
    if (get_typed(obj, "isolation", json_type_object, &iso, err) < 0)
        return -1;
    return isolation_report_from_json(iso, &r->isolation, err);
}
