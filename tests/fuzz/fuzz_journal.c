/*
 * fuzz_journal.c - resuming a tournament (judge/tournament/tournament_journal.c) from a
 * journal that may say anything, beside replays of matches 0..5 of 12 (match
 * 4's replay holds match 5's header and result). After the journal is
 * opened, every line of it must be whole, name a distinct match, and be the
 * line its replay gives; anything else aborts, which the fuzzer reports.
 */
#include <json-c/json.h>
#include <limits.h>

#include "replay/replay.h"
#include "judge/tournament/tournament.h"
#include "tests/fuzz/fuzz_input.h"

#define N_REPLAYS 6

static struct tournament_config cfg;
static struct tournament_plan plan;
static char out_dir[128];
static const struct tournament_shard whole = {1, 1};

static void check(int ok)
{
    if (!ok)
        abort();
}

static void write_replay(const struct tournament_outdir *od, size_t i, size_t of)
{
    char id[TOURNAMENT_ID_MAX], path[PATH_MAX], header[TOURNAMENT_ID_MAX + 64], result[512];
    tournament_match_id(&cfg, &plan, &plan.matches[i], id);
    check(tournament_replay_path(od, id, path, sizeof path) == 0);
    tournament_match_id(&cfg, &plan, &plan.matches[of], id);
    snprintf(header, sizeof header, "{\"type\":\"header\",\"match_id\":\"%s\"}", id);
    const struct tournament_match *m = &plan.matches[of];
    snprintf(result, sizeof result,
             "{\"type\":\"result\",\"winner\":%d,\"draw\":%s,\"rounds\":%zu,\"players\":["
             "{\"player\":1,\"name\":\"%s\",\"place\":1,\"points\":1,\"verdict\":\"OK\"},"
             "{\"player\":2,\"name\":\"%s\",\"place\":%d,\"points\":0,\"verdict\":\"OK\"}]}",
             of % 3 ? 1 : 0, of % 3 ? "false" : "true", of + 10, cfg.players[m->seats[0]].name,
             cfg.players[m->seats[1]].name, of % 3 ? 2 : 1);
    struct replay_writer *w;
    struct replay_error err;
    check(replay_writer_open(path, &w, &err) == 0);
    replay_writer_put(w, header, strlen(header), &err);
    replay_writer_put(w, result, strlen(result), &err);
    check(replay_writer_commit(w, &err) == 0);
}

static void set_up(void)
{
    static const char map[] = "2 3 2\n3\n1\n2 40\n4\n1\n3\n";
    static const char yaml[] = "game: generals\nmaps: [tiny.map]\nseeds: [1]\nplayers:\n"
                               "  - {name: a, command: ./a}\n  - {name: b, command: ./b}\n"
                               "  - {name: c, command: ./c}\n  - {name: d, command: ./d}\n";
    fuzz_file("tiny.map", (const uint8_t *)map, sizeof map - 1);
    struct tournament_error err;
    check(tournament_config_load(fuzz_file("t.yaml", (const uint8_t *)yaml, sizeof yaml - 1), &cfg, &err) == 0);
    check(tournament_plan_build(&cfg, &plan, &err) == 0 && plan.n == 12);
    snprintf(out_dir, sizeof out_dir, "%s/out", fuzz_dir());
    struct tournament_outdir od;
    check(tournament_outdir_open(out_dir, "00000000000000aa", whole, plan.n, plan.n, &od, &err) == 0);
    for (size_t i = 0; i < N_REPLAYS; i++)
        write_replay(&od, i, i == 4 ? 5 : i);
    tournament_outdir_close(&od);
}

/* The line match id's replay gives, or "" when it is not a whole replay of that match. */
static void line_of_replay(const struct tournament_outdir *od, const char *id, struct strbuf *out)
{
    char path[PATH_MAX];
    struct replay_reader *rd;
    struct replay_error err;
    json_object *o, *header = NULL, *last = NULL, *v;
    check(tournament_replay_path(od, id, path, sizeof path) == 0);
    if (replay_reader_open(path, &rd, &err) < 0)
        return;
    int got;
    while ((got = replay_reader_next(rd, &o, &err)) == 1)
        if (!header)
            header = o;
        else {
            json_object_put(last);
            last = o;
        }
    replay_reader_close(rd);
    if (got == 0 && json_object_object_get_ex(header, "match_id", &v) && !strcmp(json_object_get_string(v), id))
        check(tournament_result_line(id, last, out) == 0);
    json_object_put(header);
    json_object_put(last);
}

static void check_journal(const struct tournament_outdir *od, const struct tournament_journal *j)
{
    char path[PATH_MAX], *line = NULL;
    size_t cap = 0, lines = 0;
    bool seen[12] = {false};
    snprintf(path, sizeof path, "%s/journal.jsonl", out_dir);
    FILE *f = fopen(path, "r");
    check(f != NULL);
    for (ssize_t len; (len = getline(&line, &cap, f)) > 0; lines++) {
        check(line[len - 1] == '\n');
        line[len - 1] = '\0';
        json_object *o = json_tokener_parse(line), *id = NULL;
        check(o && json_object_object_get_ex(o, "id", &id));
        long idx = tournament_id_index(json_object_get_string(id));
        check(idx >= 0 && idx < 12 && !seen[idx] && j->done[idx]);
        seen[idx] = true;
        struct strbuf want = STRBUF_INIT;
        line_of_replay(od, json_object_get_string(id), &want);
        check(want.data && !strcmp(want.data, line));
        sb_free(&want);
        json_object_put(o);
    }
    check(lines == j->n_done);
    free(line);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!plan.n)
        set_up();
    char name[160];
    snprintf(name, sizeof name, "out/journal.jsonl");
    fuzz_file(name, data, size);
    struct tournament_outdir od;
    struct tournament_journal j;
    struct tournament_error err;
    check(tournament_outdir_open(out_dir, "00000000000000aa", whole, plan.n, plan.n, &od, &err) == 0);
    if (tournament_journal_open(&od, &cfg, &plan, whole, &j, &err) == 0) {
        check_journal(&od, &j);
        tournament_journal_close(&j);
    }
    tournament_outdir_close(&od);
    return 0;
}
