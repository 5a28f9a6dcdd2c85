/* shards.c - are the tournament directories given one tournament's shards, each once, none missing?
 * (shards.h) */
#include "ci/shards.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SHARDS_MAX 100000u /* a larger count in a state file is not one the judge wrote */

static void read_state(struct shard_dir *d)
{
    json_object *o = json_object_from_file(d->state), *v, *fp;
    if (o && json_object_object_get_ex(o, "fingerprint", &fp) && json_object_is_type(fp, json_type_string) &&
        strlen(json_object_get_string(fp)) == 16 && json_object_object_get_ex(o, "shard", &v) &&
        json_object_is_type(v, json_type_array) && json_object_array_length(v) == 2) {
        int64_t i = json_object_get_int64(json_object_array_get_idx(v, 0));
        int64_t n = json_object_get_int64(json_object_array_get_idx(v, 1));
        if (n >= 1 && n <= SHARDS_MAX && i >= 1 && i <= n) {
            memcpy(d->fingerprint, json_object_get_string(fp), 17);
            d->index = (unsigned)i;
            d->count = (unsigned)n;
            /* written from the first by every judge that has it: absent, the file is older than the key */
            d->complete = !json_object_object_get_ex(o, "complete", &v) || json_object_get_boolean(v);
        }
    }
    json_object_put(o);
}

int shards_add(struct shards *s, const char *state_path, struct ci_error *err)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        struct shard_dir *v = realloc(s->v, cap * sizeof *v);
        if (!v) return ci_fail_oom(err);
        s->v = v;
        s->cap = cap;
    }
    struct shard_dir *d = &s->v[s->n];
    memset(d, 0, sizeof *d);
    if (!(d->state = strdup(state_path))) return ci_fail_oom(err);
    read_state(d);
    s->n++;
    return 0;
}

/* The first directory of the first one's tournament and count holding shard i, or NULL. */
static const struct shard_dir *holder(const struct shards *s, const struct shard_dir *first, unsigned i,
                                      size_t before)
{
    for (size_t k = 0; k < before; k++)
        if (s->v[k].index == i && s->v[k].count == first->count &&
            !strcmp(s->v[k].fingerprint, first->fingerprint))
            return &s->v[k];
    return NULL;
}

static long check_one(const struct shards *s, const struct shard_dir *first, size_t k, struct strbuf *out)
{
    const struct shard_dir *d = &s->v[k], *twice;
    int rc = 0;
    if (!d->count)
        rc = sb_printf(out,
                       "%s: not a judge tournament state file: which shard its directory holds is "
                       "unknown\n",
                       d->state);
    else if (strcmp(d->fingerprint, first->fingerprint) != 0)
        rc = sb_printf(out,
                       "%s: another tournament than %s (fingerprint %s, not %s): its shards were played "
                       "from different tournament files (or --isolation)\n",
                       d->state, first->state, d->fingerprint, first->fingerprint);
    else if (d->count != first->count)
        rc = sb_printf(out, "%s: shard %u/%u, but %s is shard %u/%u: the tournament was split two ways\n",
                       d->state, d->index, d->count, first->state, first->index, first->count);
    else if ((twice = holder(s, first, d->index, k)))
        rc = sb_printf(out, "%s: shard %u/%u again, as in %s: its matches are counted once\n", d->state,
                       d->index, d->count, twice->state);
    else if (!d->complete)
        rc = sb_printf(out,
                       "%s: shard %u/%u was not played to the end (its run was stopped, killed or failed): "
                       "its unfinished matches are not in the standings; run it again, it resumes\n",
                       d->state, d->index, d->count);
    else
        return 0;
    return rc < 0 ? -1 : 1;
}

/* One line for every shard of first's tournament that no directory holds: "shards 2, 4-6 of 8 ...". */
static long missing(const struct shards *s, const struct shard_dir *first, struct strbuf *out, long n)
{
    bool *have = calloc((size_t)first->count + 1, sizeof *have);
    if (!have) return -1;
    for (size_t k = 0; k < s->n; k++)
        if (s->v[k].count == first->count && !strcmp(s->v[k].fingerprint, first->fingerprint))
            have[s->v[k].index] = true;
    struct strbuf list = STRBUF_INIT;
    unsigned gaps = 0;
    int rc = 0;
    for (unsigned i = 1; rc == 0 && i <= first->count; i++) {
        if (have[i]) continue;
        unsigned last = i;
        while (last < first->count && !have[last + 1]) last++;
        rc = last == i ? sb_printf(&list, "%s%u", gaps ? ", " : "", i)
                       : sb_printf(&list, "%s%u-%u", gaps ? ", " : "", i, last);
        gaps += last - i + 1;
        i = last;
    }
    if (rc == 0 && gaps)
        rc = sb_printf(out,
                       "shard%s %s of %u of the tournament in %s (fingerprint %s) %s missing: %s "
                       "matches are not in the standings\n",
                       gaps == 1 ? "" : "s", list.data, first->count, first->state, first->fingerprint,
                       gaps == 1 ? "is" : "are", gaps == 1 ? "its" : "their");
    sb_free(&list);
    free(have);
    return rc < 0 ? -1 : n + (gaps > 0);
}

long shards_check(const struct shards *s, struct strbuf *problems)
{
    const struct shard_dir *first = NULL;
    for (size_t k = 0; k < s->n && !first; k++)
        if (s->v[k].count) first = &s->v[k];
    long n = 0;
    for (size_t k = 0; k < s->n; k++) {
        long r = check_one(s, first ? first : &s->v[k], k, problems);
        if (r < 0) return -1;
        n += r;
    }
    return first ? missing(s, first, problems, n) : n;
}

void shards_free(struct shards *s)
{
    for (size_t i = 0; i < s->n; i++) free(s->v[i].state);
    free(s->v);
    memset(s, 0, sizeof *s);
}
