/* grading.c - read a grading file (grading.h). */
#include "ci/grading.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct loader {
    struct yr_file file;
    struct grading *g;
    struct yr_error err;
};

int grading_fail_at(const struct grading *g, struct yr_mark at, struct ci_error *err, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ci_fail_usage(err, "%s:%d:%d: %s", g->path, at.line, at.col, msg);
}

static int fail(struct loader *l, struct yr_mark at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct loader *l, struct yr_mark at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return yr_fail(&l->file, at, &l->err, "%s", msg);
}

static int owned_string(struct loader *l, const yaml_node_t *node, char **out)
{
    const char *s;
    if (yr_string(&l->file, node, &s, &l->err) < 0)
        return -1;
    if (!*s)
        return fail(l, yr_node_mark(node), "expected a non-empty string");
    *out = strdup(s);
    return *out ? 0 : fail(l, yr_node_mark(node), "out of memory");
}

static int read_count(struct loader *l, const yaml_node_t *node, int64_t min, int64_t max, int64_t *out)
{
    if (yr_int64(&l->file, node, out, &l->err) < 0)
        return -1;
    if (*out < min || *out > max)
        return fail(l, yr_node_mark(node), "expected an integer from %lld to %lld", (long long)min,
                    (long long)max);
    return 0;
}

#define COUNT_MAX 1000000000LL

/* wins: {against: NAME, at_least: N, of: M} */
static int read_wins(struct loader *l, const yaml_node_t *node, struct grading_rule *r)
{
    if (yr_expect_mapping(&l->file, node, "wins", &l->err) < 0)
        return -1;
    bool have_at_least = false;
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(&l->file, node, i, &e, &l->err) < 0)
            return -1;
        int rc = !strcmp(e.key, "against")    ? owned_string(l, e.value, &r->against)
                 : !strcmp(e.key, "at_least") ? read_count(l, e.value, 1, COUNT_MAX, &r->at_least)
                 : !strcmp(e.key, "of")       ? read_count(l, e.value, 1, COUNT_MAX, &r->of)
                                        : fail(l, e.key_mark, "unknown key in wins (against, at_least, of)");
        if (rc < 0)
            return -1;
        if (!strcmp(e.key, "against"))
            r->against_mark = yr_node_mark(e.value);
        have_at_least = have_at_least || !strcmp(e.key, "at_least");
    }
    if (!have_at_least)
        return fail(l, yr_node_mark(node), "wins needs at_least");
    if (r->of && r->at_least > r->of)
        return fail(l, yr_node_mark(node), "at_least (%lld) is more than of (%lld)", (long long)r->at_least,
                    (long long)r->of);
    return 0;
}

/* The one criterion key of a rule. 1: it was one; 0: not a criterion; -1: error. */
static int read_criterion(struct loader *l, const struct yr_entry *e, struct grading_rule *r, int *criteria)
{
    bool yes;
    if (!strcmp(e->key, "wins")) {
        r->kind = GR_WINS;
        (*criteria)++;
        return read_wins(l, e->value, r) < 0 ? -1 : 1;
    }
    if (!strcmp(e->key, "no_violations")) {
        r->kind = GR_NO_VIOLATIONS;
        (*criteria)++;
        if (yr_bool(&l->file, e->value, &yes, &l->err) < 0)
            return -1;
        return yes ? 1 : fail(l, yr_node_mark(e->value), "no_violations can only be true");
    }
    if (!strcmp(e->key, "top_percent")) {
        r->kind = GR_TOP_PERCENT;
        (*criteria)++;
        return read_count(l, e->value, 1, 100, &r->percent) < 0 ? -1 : 1;
    }
    return 0;
}

static int read_rule(struct loader *l, const yaml_node_t *node, struct grading_rule *r)
{
    if (yr_expect_mapping(&l->file, node, "a rule", &l->err) < 0)
        return -1;
    int criteria = 0;
    bool have_points = false;
    for (size_t i = 0; i < yr_mapping_size(node); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(&l->file, node, i, &e, &l->err) < 0)
            return -1;
        int rc = read_criterion(l, &e, r, &criteria);
        if (rc < 0)
            return -1;
        if (criteria > 1)
            return fail(l, e.key_mark, "a rule has one criterion (wins, no_violations or top_percent)");
        if (rc == 1)
            continue;
        if (!strcmp(e.key, "name")) {
            rc = owned_string(l, e.value, &r->name);
        } else if (!strcmp(e.key, "points")) {
            have_points = true;
            rc = read_count(l, e.value, 0, COUNT_MAX, &r->points);
        } else {
            rc =
                fail(l, e.key_mark, "unknown key in a rule (name, points, wins, no_violations, top_percent)");
        }
        if (rc < 0)
            return -1;
    }
    if (!r->name || !have_points || !criteria)
        return fail(l, yr_node_mark(node),
                    "a rule needs a name, points and one criterion "
                    "(wins, no_violations or top_percent)");
    return 0;
}

static int read_rules(struct loader *l, const yaml_node_t *seq)
{
    if (yr_expect_sequence(&l->file, seq, "rules", &l->err) < 0)
        return -1;
    size_t n = yr_sequence_size(seq);
    if (n == 0)
        return fail(l, yr_node_mark(seq), "rules is empty");
    if (!(l->g->rules = calloc(n, sizeof *l->g->rules)))
        return fail(l, yr_node_mark(seq), "out of memory");
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *item = yr_sequence_item(&l->file, seq, i);
        l->g->n_rules++;
        if (read_rule(l, item, &l->g->rules[i]) < 0)
            return -1;
        /* grades.md and grades.json tell rules apart by name: a copied rule would count twice unseen */
        for (size_t j = 0; j < i; j++)
            if (!strcmp(l->g->rules[j].name, l->g->rules[i].name))
                return fail(l, yr_node_mark(item), "a second rule named '%.200s' (rule %zu has that name)",
                            l->g->rules[i].name, j + 1);
        l->g->max_points += l->g->rules[i].points;
    }
    return 0;
}

static int read_reference(struct loader *l, const yaml_node_t *seq)
{
    if (yr_expect_sequence(&l->file, seq, "reference", &l->err) < 0)
        return -1;
    size_t n = yr_sequence_size(seq);
    struct grading *g = l->g;
    if (!(g->reference = calloc(n + 1, sizeof *g->reference)) ||
        !(g->reference_marks = calloc(n + 1, sizeof *g->reference_marks)))
        return fail(l, yr_node_mark(seq), "out of memory");
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *item = yr_sequence_item(&l->file, seq, i);
        g->n_reference++;
        g->reference_marks[i] = yr_node_mark(item);
        if (owned_string(l, item, &g->reference[i]) < 0)
            return -1;
    }
    return 0;
}

static int read_top(struct loader *l)
{
    const yaml_node_t *root = yr_root(&l->file);
    if (!root)
        return fail(l, yr_document_mark(&l->file), "the grading file is empty");
    if (yr_expect_mapping(&l->file, root, "the grading file", &l->err) < 0)
        return -1;
    const yaml_node_t *rules = NULL;
    for (size_t i = 0; i < yr_mapping_size(root); i++) {
        struct yr_entry e;
        if (yr_mapping_entry(&l->file, root, i, &e, &l->err) < 0)
            return -1;
        if (!strcmp(e.key, "rules"))
            rules = e.value;
        else if (!strcmp(e.key, "reference")) {
            if (read_reference(l, e.value) < 0)
                return -1;
        } else
            return fail(l, e.key_mark, "unknown key (rules, reference)");
    }
    if (!rules)
        return fail(l, yr_node_mark(root), "the grading file has no rules");
    return read_rules(l, rules);
}

int grading_load(const char *path, struct grading *g, struct ci_error *err)
{
    memset(g, 0, sizeof *g);
    struct loader l = {.g = g};
    if (!(g->path = strdup(path)))
        return ci_fail_oom(err);
    if (yr_load(path, &l.file, &l.err) < 0) {
        grading_free(g);
        return ci_fail_usage(err, "%s", l.err.msg);
    }
    int rc = read_top(&l);
    yr_free(&l.file);
    if (rc < 0) {
        grading_free(g);
        return ci_fail_usage(err, "%s", l.err.msg);
    }
    return 0;
}

void grading_free(struct grading *g)
{
    for (size_t i = 0; i < g->n_rules; i++) {
        free(g->rules[i].name);
        free(g->rules[i].against);
    }
    for (size_t i = 0; i < g->n_reference; i++)
        free(g->reference[i]);
    free(g->rules);
    free(g->reference);
    free(g->reference_marks);
    free(g->path);
    memset(g, 0, sizeof *g);
}

static bool same(const char *a, const char *b, size_t b_len)
{
    return strlen(a) == b_len && !memcmp(a, b, b_len);
}

bool grading_is_reference(const struct grading *g, const char *name, size_t len)
{
    for (size_t i = 0; i < g->n_reference; i++)
        if (same(g->reference[i], name, len))
            return true;
    return false;
}

bool grading_wants_wins(const struct grading *g, const char *player, size_t player_len, const char *opponent,
                        size_t opponent_len)
{
    if (!g || grading_is_reference(g, player, player_len))
        return false;
    for (size_t i = 0; i < g->n_rules; i++) {
        const struct grading_rule *r = &g->rules[i];
        if (r->kind == GR_WINS && (!r->against || same(r->against, opponent, opponent_len)))
            return true;
    }
    return false;
}
