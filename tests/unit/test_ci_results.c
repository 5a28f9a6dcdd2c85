/*
 * test_ci_results.c - the results stage on hand-made replays (no jail): free-for-all
 * matches decomposed by place, standings that do not depend on the order replays are
 * read in, a damaged replay withdrawn whole, the summary's size cap, compile records, the
 * match pages (64 matches to a page, a big replay on a page of its own), a tournament's
 * bots/ left unread, the shards' agreeing compile records merged, the matches played with
 * best-effort isolation counted and their layers named.
 */
#include <check.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ci/results.h"

static char root[64];

static void make_root(void)
{
    strcpy(root, "/tmp/test_ci_results.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
}

static void remove_root(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}

static void sub(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", root, name);
}

static void write_gz(const char *dir, const char *name, const char *text)
{
    char d[256], path[512];
    sub(d, sizeof d, dir);
    for (char *slash = strchr(d + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(d, 0755);
        *slash = '/';
    }
    mkdir(d, 0755);
    snprintf(path, sizeof path, "%s/%s", d, name);
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    ck_assert_int_eq(gzputs(gz, text), (int)strlen(text));
    gzclose(gz);
}

/* A replay of `game` with players names[0..n) at places[0..n) (points = n - place + 1). */
static char *replay(unsigned seed, int n, const char *const *names, const int *places, const char *extra)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f,
            "{\"type\":\"header\",\"format\":\"judge-replay\",\"version\":1,\"game\":\"toy\",\"map\":\"m\","
            "\"map_source\":\"maps/toy.map\",\"seed\":%u,\"players\":[",
            seed);
    for (int i = 0; i < n; i++)
        fprintf(
            f,
            "%s{\"player\":%d,\"name\":\"%s\",\"command\":[\"./bot\"],\"dir\":null,\"profile\":\"default\"}",
            i ? "," : "", i + 1, names[i]);
    fprintf(f,
            "]}\n%s{\"type\":\"result\",\"winner\":0,\"draw\":false,\"rounds\":1,\"replies\":1,\"players\":[",
            extra ? extra : "");
    for (int i = 0; i < n; i++)
        fprintf(f,
                "%s{\"player\":%d,\"name\":\"%s\",\"place\":%d,\"points\":%d,\"verdict\":\"OK\","
                "\"violation\":null,"
                "\"moves\":1,\"cpu_ns\":1000000,\"budget_ns\":0,\"memory_peak_bytes\":1,\"stats\":[]}",
                i ? "," : "", i + 1, names[i], places[i], n - places[i] + 1);
    fprintf(f, "]}\n");
    fclose(f);
    return text;
}

static void put_replay(const char *dir, const char *name, unsigned seed, int n, const char *const *names,
                       const int *places, const char *extra)
{
    char *text = replay(seed, n, names, places, extra);
    write_gz(dir, name, text);
    free(text);
}

static int run(const char *const *inputs, size_t n, const char *out, size_t summary_limit,
               struct results_report *rep, struct ci_error *err)
{
    char in_paths[4][256], out_path[256];
    const char *in[4];
    for (size_t i = 0; i < n; i++) {
        sub(in_paths[i], sizeof in_paths[i], inputs[i]);
        in[i] = in_paths[i];
    }
    sub(out_path, sizeof out_path, out);
    struct results_options opt = {
        .inputs = in, .n_inputs = n, .out_dir = out_path, .summary_limit = summary_limit};
    return results_run(&opt, NULL, rep, err);
}

static struct json_object *load(const char *out, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", root, out, file);
    struct json_object *o = json_object_from_file(path);
    ck_assert_ptr_nonnull(o);
    return o;
}

/* players[name][key] of standings.json. */
static int64_t figure(struct json_object *st, const char *name, const char *key)
{
    struct json_object *players = json_object_object_get(st, "players");
    for (size_t i = 0; i < json_object_array_length(players); i++) {
        struct json_object *p = json_object_array_get_idx(players, i);
        if (!strcmp(json_object_get_string(json_object_object_get(p, "name")), name))
            return json_object_get_int64(json_object_object_get(p, key));
    }
    ck_abort_msg("no player %s", name);
    return -1;
}

static const char *const abc[] = {"a", "b", "c"};

START_TEST(free_for_all_decomposes_by_place)
{
    make_root();
    put_replay("in", "1.jsonl.gz", 1, 3, abc, (const int[]){1, 2, 3}, NULL);
    put_replay("in", "2.jsonl.gz", 2, 3, abc, (const int[]){1, 1, 1}, NULL); /* equal places: a draw */
    put_replay("in", "3.jsonl.gz", 3, 3, abc, (const int[]){2, 1, 2}, NULL);
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.matches, 3);
    struct json_object *st = load("out", "standings.json");
    ck_assert_int_eq(figure(st, "a", "wins"), 1);
    ck_assert_int_eq(figure(st, "a", "draws"), 1);
    ck_assert_int_eq(figure(st, "a", "losses"), 1);
    ck_assert_int_eq(figure(st, "b", "wins"), 1);
    ck_assert_int_eq(figure(st, "c", "losses"), 2);
    ck_assert_int_eq(figure(st, "a", "points"), 3 + 3 + 2);
    /* a against c: ahead in match 1, level in 2 and 3 */
    struct json_object *h2h = json_object_object_get(st, "head_to_head");
    bool found = false;
    for (size_t i = 0; i < json_object_array_length(h2h); i++) {
        struct json_object *h = json_object_array_get_idx(h2h, i);
        if (strcmp(json_object_get_string(json_object_object_get(h, "player")), "a") ||
            strcmp(json_object_get_string(json_object_object_get(h, "opponent")), "c"))
            continue;
        found = true;
        ck_assert_int_eq(json_object_get_int(json_object_object_get(h, "wins")), 1);
        ck_assert_int_eq(json_object_get_int(json_object_object_get(h, "draws")), 2);
        ck_assert_int_eq(json_object_get_int(json_object_object_get(h, "losses")), 0);
    }
    ck_assert(found);
    json_object_put(st);
    results_report_free(&rep);
    remove_root();
}
END_TEST

static const char *standings_core(const char *out, struct json_object **keep)
{
    struct json_object *st = load(out, "standings.json"), *core = json_object_new_object();
    json_object_object_add(core, "players", json_object_get(json_object_object_get(st, "players")));
    json_object_object_add(core, "head_to_head", json_object_get(json_object_object_get(st, "head_to_head")));
    json_object_put(st);
    *keep = core;
    return json_object_to_json_string(core);
}

START_TEST(standings_do_not_depend_on_reading_order)
{
    make_root();
    static const char *const names[] = {"ann", "bob", "cid", "dee", "eve"};
    for (int k = 0; k < 40; k++) {
        int i = k % 5, j = (k * 3 + 1) % 5;
        if (i == j)
            continue;
        const char *pair[] = {names[i], names[j]};
        int places[2] = {k % 3 == 0 ? 2 : 1, k % 3 == 0 ? 1 : (k % 7 == 0 ? 1 : 2)};
        char fwd[32], back[32];
        snprintf(fwd, sizeof fwd, "%03d.jsonl.gz", k);
        snprintf(back, sizeof back, "%03d.jsonl.gz", 99 - k);
        put_replay("one", fwd, (unsigned)k, 2, pair, places, NULL);
        put_replay(k % 2 ? "two" : "three", back, (unsigned)k, 2, pair, places, NULL);
    }
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"one"}, 1, "out1", 0, &rep, &err), 0);
    results_report_free(&rep);
    ck_assert_int_eq(run((const char *[]){"three", "two"}, 2, "out2", 0, &rep, &err), 0);
    results_report_free(&rep);
    struct json_object *k1, *k2;
    ck_assert_str_eq(standings_core("out1", &k1), standings_core("out2", &k2));
    json_object_put(k1);
    json_object_put(k2);
    remove_root();
}
END_TEST

#define CRASH                                                                                                \
    "{\"type\":\"violation\",\"player\":2,\"round\":1,\"reply\":1,\"kind\":\"crash\",\"verdict\":\"RUNTIME_" \
    "ERROR\","                                                                                               \
    "\"by\":\"judge\",\"evidence\":{\"reason\":\"exited with status 1\"},\"stderr_tail\":\"oops\\n\"}\n"

START_TEST(a_damaged_replay_is_withdrawn_whole)
{
    make_root();
    static const char *const ok[] = {"a", "b"}, *const ghost[] = {"a", "ghost"};
    put_replay("in", "good.jsonl.gz", 1, 2, ok, (const int[]){1, 2}, CRASH);
    char *text = replay(2, 2, ghost, (const int[]){1, 2}, CRASH);
    *strstr(text, "{\"type\":\"result\"") = '\0'; /* cut before the result line */
    write_gz("in", "cut.jsonl.gz", text);
    free(text);
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.matches, 1);
    ck_assert_uint_eq(rep.skipped_damaged, 1);
    ck_assert_uint_eq(rep.violations, 1);
    ck_assert_uint_eq(rep.players, 2); /* no "ghost" */
    struct json_object *audit = load("out", "audit.json"),
                       *players = json_object_object_get(audit, "players");
    ck_assert_uint_eq(json_object_array_length(players), 1);
    struct json_object *b = json_object_array_get_idx(players, 0);
    ck_assert_str_eq(json_object_get_string(json_object_object_get(b, "name")), "b");
    ck_assert_int_eq(json_object_get_int(json_object_object_get(b, "count")), 1);
    json_object_put(audit);
    results_report_free(&rep);
    remove_root();
}
END_TEST

START_TEST(the_summary_keeps_under_its_cap)
{
    make_root();
    char names[120][24];
    for (int i = 0; i < 120; i++)
        snprintf(names[i], sizeof names[i], "player%03d", i);
    for (int i = 0; i + 1 < 120; i++) {
        const char *pair[] = {names[i], names[i + 1]};
        char file[32];
        snprintf(file, sizeof file, "%03d.jsonl.gz", i);
        put_replay("in", file, (unsigned)i, 2, pair, (const int[]){1, 2}, NULL);
    }
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 4096, &rep, &err), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/out/summary.md", root);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_le(st.st_size, 4096);
    ck_assert_int_gt(st.st_size, 3000);
    FILE *f = fopen(path, "r");
    char buf[4097] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_uint_eq(n, (size_t)st.st_size);
    ck_assert_ptr_nonnull(strstr(buf, "\n_Truncated to stay under 4096 bytes: "));
    ck_assert_ptr_nonnull(strstr(buf, "## Standings\n"));
    ck_assert_ptr_nonnull(strstr(buf, " | player"));
    results_report_free(&rep);
    remove_root();
}
END_TEST

START_TEST(compile_records_and_nothing_valid)
{
    make_root();
    write_gz(
        "in/compile", "zed.jsonl.gz",
        "{\"type\":\"compile\",\"format\":\"judge-compile\",\"version\":1,\"player\":\"zed\",\"profile\":"
        "\"c\","
        "\"source\":\"s/zed\",\"verdict\":\"COMPILE_ERROR\",\"exit_code\":1,\"messages\":\"zed.c:1: error\","
        "\"cpu_ns\":5,\"wall_ns\":6,\"judge_version\":\"x\"}\n");
    write_gz("bad", "broken.jsonl.gz", "{\"type\":\"compile\",\"format\":\"judge-compile\",\"version\":1}\n");
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.compile_records, 1);
    ck_assert_uint_eq(rep.players, 1);
    struct json_object *st = load("out", "standings.json");
    ck_assert_int_eq(figure(st, "zed", "matches"), 0);
    json_object_put(st);
    results_report_free(&rep);

    ck_assert_int_eq(run((const char *[]){"bad"}, 1, "out2", 0, &rep, &err), -1);
    ck_assert_int_eq(err.status, CI_STATUS_USAGE);
    ck_assert_str_eq(err.msg, "no valid replay found (1 file read, 1 damaged, 0 duplicate)");
    remove_root();
}
END_TEST

static char *read_text(const char *out, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", root, out, file);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s is missing", path);
    char *text = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&text, &cap, '\0', f);
    fclose(f);
    ck_assert_int_gt(n, 0);
    return text;
}

static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, needle)); at++)
        n++;
    return n;
}

/* An event line of random base64 letters: its replay compresses to more than a megabyte. */
static char *incompressible_line(size_t letters)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *line = malloc(letters + 64);
    ck_assert_ptr_nonnull(line);
    size_t at = (size_t)sprintf(line, "{\"type\":\"event\",\"event\":{\"t\":\"pad\",\"x\":\"");
    uint64_t x = 88172645463325252u;
    for (size_t i = 0; i < letters; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        line[at++] = b64[x & 63];
    }
    strcpy(line + at, "\"}}\n");
    return line;
}

START_TEST(match_pages_hold_64_matches_and_a_big_replay_its_own)
{
    make_root();
    for (int i = 0; i < 70; i++) {
        const char *pair[] = {abc[i % 3], abc[(i + 1) % 3]};
        char file[32];
        snprintf(file, sizeof file, "%03d.jsonl.gz", i);
        put_replay("in", file, (unsigned)i, 2, pair, (const int[]){1, 2}, NULL);
    }
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 0, &rep, &err), 0);
    char *first = read_text("out", "matches/1-64.html"), *rest = read_text("out", "matches/65-70.html");
    ck_assert_uint_eq(count_of(first, "class=\"jv-replay\""), 64);
    ck_assert_uint_eq(count_of(rest, "class=\"jv-replay\""), 6);
    ck_assert_ptr_nonnull(strstr(rest, "data-id=\"70-069\" data-name=\"069.jsonl.gz\">"));
    ck_assert_ptr_nonnull(strstr(rest, "<script src=\"../viewer.js\"></script>"));
    char *index = read_text("out", "index.html");
    ck_assert_ptr_nonnull(strstr(index, "<script type=\"application/json\" id=\"jr-pages\">[\"1-64.html\",\"65-70.html\"]"));
    ck_assert_ptr_nonnull(strstr(index, "{\"id\":\"65-064\",\"page\":1,"));
    free(first), free(rest), free(index);
    results_report_free(&rep);

    /* A replay over a megabyte between the 32nd and the 33rd: the page so far is closed first. */
    char *pad = incompressible_line(1600000);
    put_replay("in", "031x.jsonl.gz", 1000, 2, abc, (const int[]){1, 2}, pad);
    free(pad);
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out2", 0, &rep, &err), 0);
    char *own = read_text("out2", "matches/33-33.html"), *before = read_text("out2", "matches/1-32.html");
    char *after = read_text("out2", "matches/34-71.html");
    ck_assert_ptr_nonnull(strstr(own, "id=\"jv-replay\" data-name=\"031x.jsonl.gz\""));
    ck_assert_uint_eq(count_of(own, "class=\"jv-replay\""), 0);
    ck_assert_uint_eq(count_of(before, "class=\"jv-replay\""), 32);
    ck_assert_uint_eq(count_of(after, "class=\"jv-replay\""), 38);
    index = read_text("out2", "index.html");
    ck_assert_ptr_nonnull(strstr(index, "[\"1-32.html\",\"33-33.html\",\"34-71.html\"]"));
    ck_assert_ptr_nonnull(strstr(index, "{\"id\":\"33-031x\",\"page\":1,"));
    free(own), free(before), free(after), free(index);
    results_report_free(&rep);
    remove_root();
}
END_TEST

/* A submission's directory under a tournament's bots/ may hold a forged replay. */
START_TEST(a_tournament_directory_is_read_for_its_records_only)
{
    make_root();
    static const char *const ab[] = {"a", "b"};
    put_replay("shard-1/replays", "m1.jsonl.gz", 1, 2, ab, (const int[]){1, 2}, NULL);
    put_replay("shard-1/bots/b", "forged.jsonl.gz", 2, 2, ab, (const int[]){2, 1}, NULL);
    put_replay("loose/bots/b", "kept.jsonl.gz", 3, 2, ab, (const int[]){2, 1}, NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/shard-1/tournament.json", root);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{}\n", f);
    fclose(f);
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"shard-1"}, 1, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.files, 1);
    ck_assert_uint_eq(rep.matches, 1);
    results_report_free(&rep);
    /* Without tournament.json a directory is searched whole, bots/ or not. */
    ck_assert_int_eq(run((const char *[]){"loose"}, 1, "out2", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.matches, 1);
    results_report_free(&rep);
    remove_root();
}
END_TEST

static char *compile_record(const char *verdict, const char *messages, unsigned cpu)
{
    char *text = NULL;
    if (asprintf(&text,
                 "{\"type\":\"compile\",\"format\":\"judge-compile\",\"version\":1,\"player\":\"zed\","
                 "\"profile\":\"c\",\"source\":\"s/zed\",\"verdict\":\"%s\",\"exit_code\":0,"
                 "\"messages\":\"%s\",\"cpu_ns\":%u,\"wall_ns\":6,\"judge_version\":\"x\"}\n",
                 verdict, messages, cpu) < 0)
        ck_abort();
    return text;
}

/* Each shard that plays a player compiles it: copies that agree are one record, quietly. */
START_TEST(shards_compile_records_that_agree_are_merged)
{
    make_root();
    char *a = compile_record("OK", "", 5), *b = compile_record("OK", "", 7);
    char *c = compile_record("COMPILE_ERROR", "x", 5);
    write_gz("s1/compile", "zed.jsonl.gz", a);
    write_gz("s2/compile", "zed.jsonl.gz", b);
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"s1", "s2"}, 2, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.compile_records, 1);
    ck_assert_uint_eq(rep.skipped_duplicate, 0);
    results_report_free(&rep);
    write_gz("s3/compile", "zed.jsonl.gz", c);
    ck_assert_int_eq(run((const char *[]){"s1", "s2", "s3"}, 3, "out2", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.compile_records, 1);
    ck_assert_uint_eq(rep.skipped_duplicate, 1);
    results_report_free(&rep);
    free(a);
    free(b);
    free(c);
    remove_root();
}
END_TEST

/* A two-player replay of a and b whose header says `iso` as its "isolation". */
static void put_replay_isolated(const char *name, unsigned seed, const char *iso)
{
    char *text = replay(seed, 2, abc, (const int[]){1, 2}, NULL), *with = NULL;
    char *players = strstr(text, "\"players\":[");
    ck_assert_ptr_nonnull(players);
    ck_assert_int_ge(asprintf(&with, "%.*s\"isolation\":%s,%s", (int)(players - text), text, iso, players), 0);
    write_gz("in", name, with);
    free(with);
    free(text);
}

static bool file_has(const char *out, const char *file, const char *needle)
{
    char path[512], buf[8192];
    snprintf(path, sizeof path, "%s/%s/%s", root, out, file);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

#define ISO_ON       "{\"user_ns\":\"on\",\"freezer\":\"on\",\"cgroup\":\"v1\",\"degraded\":false,\"how\":{}}"
#define ISO_DEGRADED                                                                                         \
    "{\"user_ns\":\"degraded\",\"memory_limit\":\"degraded\",\"freezer\":\"on\",\"cgroup\":\"none\","           \
    "\"degraded\":true,\"how\":{\"user_ns\":\"own uid only (not root)\",\"memory_limit\":\"rlimit RLIMIT_AS\"}}"
#define ISO_FREEZER_OFF                                                                                      \
    "{\"user_ns\":\"on\",\"memory_limit\":\"degraded\",\"freezer\":\"off\",\"cgroup\":\"none\",\"degraded\":true,"  \
    "\"how\":{}}"

START_TEST(best_effort_matches_are_noted)
{
    make_root();
    put_replay_isolated("1.jsonl.gz", 1, ISO_ON);
    put_replay_isolated("2.jsonl.gz", 2, ISO_DEGRADED);
    put_replay_isolated("3.jsonl.gz", 3, "[" ISO_ON "," ISO_FREEZER_OFF "]"); /* one report per player */
    struct results_report rep;
    struct ci_error err;
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.best_effort_matches, 2);
    ck_assert_str_eq(rep.best_effort_layers, "user_ns, memory_limit, freezer");
    struct json_object *st = load("out", "standings.json");
    ck_assert_int_eq(json_object_get_int(json_object_object_get(st, "best_effort_matches")), 2);
    json_object_put(st);
    const char *note = "**Isolation:** 2 of 3 matches ran with best-effort isolation, these layers not fully on: "
                       "user\\_ns, memory\\_limit, freezer (each replay's header says what stood in for them).";
    ck_assert(file_has("out", "standings.md", note));
    ck_assert(file_has("out", "summary.md", note));
    results_report_free(&rep);
    remove_root();

    make_root();
    put_replay_isolated("1.jsonl.gz", 1, ISO_ON);
    ck_assert_int_eq(run((const char *[]){"in"}, 1, "out", 0, &rep, &err), 0);
    ck_assert_uint_eq(rep.best_effort_matches, 0);
    ck_assert(!file_has("out", "standings.md", "Isolation"));
    results_report_free(&rep);
    remove_root();
}
END_TEST

static Suite *results_suite(void)
{
    Suite *s = suite_create("results");
    TCase *t = tcase_create("results");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, free_for_all_decomposes_by_place);
    tcase_add_test(t, standings_do_not_depend_on_reading_order);
    tcase_add_test(t, a_damaged_replay_is_withdrawn_whole);
    tcase_add_test(t, the_summary_keeps_under_its_cap);
    tcase_add_test(t, compile_records_and_nothing_valid);
    tcase_add_test(t, match_pages_hold_64_matches_and_a_big_replay_its_own);
    tcase_add_test(t, a_tournament_directory_is_read_for_its_records_only);
    tcase_add_test(t, shards_compile_records_that_agree_are_merged);
    tcase_add_test(t, best_effort_matches_are_noted);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(results_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
