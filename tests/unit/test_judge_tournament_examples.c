/* test_judge_tournament_examples.c - the sharded-tournament pipeline files
 * (GitHub Actions, GitLab CI, a Kubernetes Indexed Job) parse as YAML with
 * libyaml and hold together: the shard count agrees everywhere, each shard
 * gets its own output directory, the results stage merges them, the
 * tournament file named exists, and the shell lines give the right --shard.
 * Run from the repository root (as `make test` does); no network. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define GITHUB   "ci/examples/github-tournament-shards.yml"
#define GITLAB   "ci/examples/gitlab-tournament-shards.yml"
#define K8S      "containers/k8s/tournament-indexed-job.yaml"
#define GH_CLASS "ci/examples/github-grading.yml"
#define GL_CLASS "ci/examples/gitlab-grading.yml"
#define MAX_DOCS 4

struct docs {
    yaml_document_t doc[MAX_DOCS];
    int n;
};

static void load_all(const char *path, struct docs *d)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: cannot open (run from the repository root)", path);
    yaml_parser_t parser;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_file(&parser, f);
    d->n = 0;
    for (;;) {
        ck_assert_int_lt(d->n, MAX_DOCS);
        yaml_document_t *doc = &d->doc[d->n];
        ck_assert_msg(yaml_parser_load(&parser, doc), "%s:%zu:%zu: %s", path, parser.problem_mark.line + 1,
                      parser.problem_mark.column + 1, parser.problem ? parser.problem : "invalid YAML");
        if (!yaml_document_get_root_node(doc)) {
            yaml_document_delete(doc);
            break;
        }
        d->n++;
    }
    yaml_parser_delete(&parser);
    fclose(f);
}

static void free_all(struct docs *d)
{
    for (int i = 0; i < d->n; i++) yaml_document_delete(&d->doc[i]);
}

/* The node at a dotted path of mapping keys and sequence indices ("jobs.play.steps.2.run"). */
static yaml_node_t *at(yaml_document_t *doc, const char *dotted)
{
    yaml_node_t *node = yaml_document_get_root_node(doc);
    char path[256];
    snprintf(path, sizeof path, "%s", dotted);
    for (char *save, *key = strtok_r(path, ".", &save); node && key; key = strtok_r(NULL, ".", &save)) {
        yaml_node_t *next = NULL;
        if (node->type == YAML_SEQUENCE_NODE) {
            long i = strtol(key, NULL, 10);
            if (i >= 0 && i < node->data.sequence.items.top - node->data.sequence.items.start)
                next = yaml_document_get_node(doc, node->data.sequence.items.start[i]);
        } else if (node->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
                 p++) {
                yaml_node_t *k = yaml_document_get_node(doc, p->key);
                if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
                    next = yaml_document_get_node(doc, p->value);
            }
        }
        node = next;
    }
    return node;
}

static const char *text(yaml_document_t *doc, const char *dotted)
{
    yaml_node_t *n = at(doc, dotted);
    ck_assert_msg(n && n->type == YAML_SCALAR_NODE, "no scalar at %s", dotted);
    return (const char *)n->data.scalar.value;
}

static int length(yaml_document_t *doc, const char *dotted)
{
    yaml_node_t *n = at(doc, dotted);
    ck_assert_msg(n && n->type == YAML_SEQUENCE_NODE, "no sequence at %s", dotted);
    return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

/* The text of the first item of a sequence of scalars (or of `run:` steps) containing needle. */
static const char *find_line(yaml_document_t *doc, const char *seq, const char *field, const char *needle)
{
    char item[256];
    for (int i = 0; i < length(doc, seq); i++) {
        snprintf(item, sizeof item, "%s.%d%s%s", seq, i, field ? "." : "", field ? field : "");
        yaml_node_t *n = at(doc, item);
        if (n && n->type == YAML_SCALAR_NODE && strstr((const char *)n->data.scalar.value, needle))
            return (const char *)n->data.scalar.value;
    }
    ck_abort_msg("no line of %s contains %s", seq, needle);
    return NULL;
}

static void assert_file(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0 && S_ISREG(st.st_mode), "%s: not found", path);
}

/* What a shell line runs, with `judge` and `bin/judge` a script that echoes its arguments. */
static void run_line(const char *env, const char *line, char *out, size_t size)
{
    char dir[] = "/tmp/test_tournament_examples.XXXXXX", bin[64], fake[128], sh[128], cmd[2048];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(bin, sizeof bin, "%s/bin", dir);
    ck_assert_int_eq(mkdir(bin, 0755), 0);
    snprintf(fake, sizeof fake, "%s/judge", bin);
    snprintf(sh, sizeof sh, "%s/line.sh", dir);
    FILE *f = fopen(fake, "w"), *script = fopen(sh, "w");
    ck_assert(f && script);
    fputs("#!/bin/sh\necho \"$@\"\n", f);
    fputs(line, script);
    fclose(f);
    fclose(script);
    ck_assert_int_eq(chmod(fake, 0755), 0);
    snprintf(cmd, sizeof cmd, "cd %s && env PATH='%s:/usr/bin:/bin' %s sh line.sh", dir, bin, env);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(fgets(out, (int)size, p));
    out[strcspn(out, "\n")] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    unlink(sh);
    unlink(fake);
    rmdir(bin);
    rmdir(dir);
}

START_TEST(github_actions_matrix)
{
    struct docs d;
    load_all(GITHUB, &d);
    ck_assert_int_eq(d.n, 1);
    yaml_document_t *doc = &d.doc[0];
    int shards = atoi(text(doc, "env.SHARDS"));
    ck_assert_int_eq(length(doc, "jobs.play.strategy.matrix.shard"), shards);
    for (int i = 0; i < shards; i++) {
        char key[64];
        snprintf(key, sizeof key, "jobs.play.strategy.matrix.shard.%d", i);
        ck_assert_int_eq(atoi(text(doc, key)), i + 1);
    }
    const char *play = find_line(doc, "jobs.play.steps", "run", "judge tournament");
    ck_assert_ptr_nonnull(strstr(play, "--shard ${{ matrix.shard }}/${{ env.SHARDS }}"));
    ck_assert_ptr_nonnull(strstr(play, "--out out/shard-${{ matrix.shard }}"));
    ck_assert_str_eq(text(doc, "jobs.results.needs"), "play");
    find_line(doc, "jobs.results.steps", "run", "judge results out --out results");
    assert_file(text(doc, "env.TOURNAMENT"));
    free_all(&d);
}
END_TEST

START_TEST(gitlab_parallel)
{
    struct docs d;
    load_all(GITLAB, &d);
    ck_assert_int_eq(d.n, 1);
    yaml_document_t *doc = &d.doc[0];
    ck_assert_str_eq(text(doc, "play.parallel"), "3");
    ck_assert_str_eq(text(doc, "play.stage"), "play");
    const char *play = find_line(doc, "play.script", NULL, "judge tournament");
    char out[512];
    run_line("CI_NODE_INDEX=2 CI_NODE_TOTAL=3 TOURNAMENT=t.yaml", play, out, sizeof out);
    ck_assert_str_eq(out, "tournament t.yaml --shard 2/3 --out out/shard-2");
    ck_assert_str_eq(text(doc, "results.needs.0.job"), "play");
    find_line(doc, "results.script", NULL, "judge results out --out results");
    ck_assert_str_eq(text(doc, "results.artifacts.reports.junit"), "results/junit.xml");
    assert_file(text(doc, "variables.TOURNAMENT"));
    free_all(&d);
}
END_TEST

START_TEST(kubernetes_indexed_job)
{
    struct docs d;
    load_all(K8S, &d);
    ck_assert_int_eq(d.n, 2);
    yaml_document_t *claim = &d.doc[0], *job = &d.doc[1];
    ck_assert_str_eq(text(claim, "kind"), "PersistentVolumeClaim");
    ck_assert_str_eq(text(job, "apiVersion"), "batch/v1");
    ck_assert_str_eq(text(job, "kind"), "Job");
    ck_assert_str_eq(text(job, "spec.completionMode"), "Indexed");
    const char *shards = text(job, "spec.template.spec.containers.0.env.0.value");
    ck_assert_str_eq(text(job, "spec.template.spec.containers.0.env.0.name"), "SHARDS");
    ck_assert_str_eq(text(job, "spec.completions"), shards);
    ck_assert_str_eq(text(job, "spec.parallelism"), shards);
    ck_assert_str_eq(text(job, "spec.template.spec.volumes.0.persistentVolumeClaim.claimName"),
                     text(claim, "metadata.name"));
    char out[512], env[128];
    snprintf(env, sizeof env, "JOB_COMPLETION_INDEX=0 SHARDS=%s TOURNAMENT=t.yaml", shards);
    run_line(env, text(job, "spec.template.spec.containers.0.args.0"), out, sizeof out);
    ck_assert_str_eq(out, "tournament t.yaml --shard 1/3 --out /data/out/shard-1 --jobs 2");
    /* The image holds the repository's examples under its working directory. */
    ck_assert_str_eq(text(job, "spec.template.spec.containers.0.workingDir"), "/opt/judge");
    assert_file(text(job, "spec.template.spec.containers.0.env.1.value"));
    free_all(&d);
}
END_TEST

/* The class-grading pipelines: list, compile + gauntlet, results with the grading file
 * on the replays, compile and smoke test records only, artifacts, and no --fail-under (a grade never
 * fails the pipeline). */
static void check_grading_lines(yaml_document_t *doc, const char *seq, const char *field, const char *class_dir)
{
    char path[256];
    find_line(doc, seq, field, "write-tournament.sh");
    const char *play = find_line(doc, seq, field, "judge tournament");
    ck_assert_ptr_nonnull(strstr(play, "\"$CLASS/tournament.yaml\" --out out"));
    const char *results = find_line(doc, seq, field, "judge results");
    ck_assert_ptr_nonnull(strstr(results, "results out/replays out/compile out/smoke --out results --grading"));
    ck_assert_ptr_null(strstr(results, "--fail-under"));
    snprintf(path, sizeof path, "%s/tournament.yaml", class_dir);
    assert_file(path);
    snprintf(path, sizeof path, "%s/grading.yaml", class_dir);
    assert_file(path);
}

START_TEST(github_grading)
{
    struct docs d;
    load_all(GH_CLASS, &d);
    ck_assert_int_eq(d.n, 1);
    check_grading_lines(&d.doc[0], "jobs.grade.steps", "run", text(&d.doc[0], "env.CLASS"));
    const char *paths = text(&d.doc[0], "jobs.grade.steps.8.with.path");
    ck_assert_ptr_nonnull(strstr(paths, "results"));
    ck_assert_ptr_nonnull(strstr(paths, "out/replays"));
    ck_assert_str_eq(text(&d.doc[0], "jobs.grade.steps.7.with.report_paths"), "results/junit.xml");
    free_all(&d);
}
END_TEST

START_TEST(gitlab_grading)
{
    struct docs d;
    load_all(GL_CLASS, &d);
    ck_assert_int_eq(d.n, 1);
    check_grading_lines(&d.doc[0], "grade.script", NULL, text(&d.doc[0], "variables.CLASS"));
    ck_assert_str_eq(text(&d.doc[0], "grade.artifacts.reports.junit"), "results/junit.xml");
    ck_assert_str_eq(text(&d.doc[0], "grade.artifacts.when"), "always");
    free_all(&d);
}
END_TEST

static Suite *examples_suite(void)
{
    Suite *s = suite_create("tournament_examples");
    TCase *tc = tcase_create("pipelines");
    tcase_add_test(tc, github_actions_matrix);
    tcase_add_test(tc, gitlab_parallel);
    tcase_add_test(tc, kubernetes_indexed_job);
    tcase_add_test(tc, github_grading);
    tcase_add_test(tc, gitlab_grading);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(examples_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
