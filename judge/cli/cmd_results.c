/* cmd_results.c - `judge results DIR... --out OUT`: the results stage (ci/results.h) on the command line. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ci/results.h"
#include "judge/cli/cmd_print.h"
#include "judge/cli/commands.h"

static const char usage_text[] =
    "usage: judge results DIR|REPLAY... --out OUT [--grading GRADING.yaml [--fail-under POINTS]] [--jobs N]\n"
    "\n"
    "Reads every replay (*.jsonl.gz, and the compile and smoke records of judge compile and\n"
    "judge tournament) under the directories given, skipping damaged and duplicate ones, and\n"
    "writes into OUT: standings.json/.md, junit.xml, summary.md, audit.json/.md (every\n"
    "violation and failed compile or smoke test, with the command that re-runs its match),\n"
    "rerun/ (the match files those commands use), index.html with matches/ (the report and\n"
    "a viewer page per match, opened from the files) and, with --grading, grades.json/.md.\n"
    "Files an earlier run wrote into OUT that this one does not are removed (and named).\n"
    "With GITHUB_ACTIONS=true, prints up to 10 annotations. Matches played with best-effort\n"
    "isolation (a layer not fully on, as their replays' headers say) are counted in a line\n"
    "of their own, and standings.md and summary.md name their layers.\n"
    "--jobs N reads replays on N threads (default: one per CPU; 1: no extra thread).\n"
    "\n"
    "In a tournament's output directory only replays/, compile/ and smoke/ are read.\n"
    "\n"
    "exit status: 0 done; 1 a graded player is below --fail-under; 2 usage, grading file,\n"
    "no valid replay, or a damaged one (skipped: the outputs are written from the others);\n"
    "3 internal error. See docs/results.md.\n";

static int usage_error(const char *what)
{
    fprintf(stderr, "judge results: %s (see judge results --help)\n", what);
    return EXIT_USAGE;
}

static void note(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "judge results: %s\n", line);
}

static int parse_count(const char *text, int64_t max, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < 0 || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_args(int argc, char **argv, struct results_options *opt)
{
    static const struct option longopts[] = {{"out", required_argument, NULL, 'o'},
                                             {"grading", required_argument, NULL, 'g'},
                                             {"fail-under", required_argument, NULL, 'f'},
                                             {"jobs", required_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    int c;
    int64_t jobs;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if (c == 'o')
            opt->out_dir = optarg;
        else if (c == 'g')
            opt->grading_path = optarg;
        else if (c == 'f' && parse_count(optarg, INT64_MAX, &opt->fail_under) == 0)
            opt->has_fail_under = true;
        else if (c == 'f')
            return usage_error("--fail-under takes a whole number of points");
        else if (c == 'j' && parse_count(optarg, 8, &jobs) == 0 && jobs > 0)
            opt->jobs = (int)jobs;
        else if (c == 'j')
            return usage_error("--jobs takes a number from 1 to 8");
        else if (c == 'h')
            return -1;
        else
            return usage_error(c == ':' ? "an option needs a value" : "unknown option");
    }
    if (!opt->out_dir)
        return usage_error("--out OUT is required");
    if (optind == argc)
        return usage_error("give at least one directory of replays");
    if (opt->has_fail_under && !opt->grading_path)
        return usage_error("--fail-under needs --grading");
    opt->inputs = (const char *const *)argv + optind;
    opt->n_inputs = (size_t)(argc - optind);
    return 0;
}

int cmd_results(int argc, char **argv)
{
    struct results_options opt = {0};
    int rc = parse_args(argc, argv, &opt);
    if (rc < 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (rc > 0)
        return rc;
    const char *gha = getenv("GITHUB_ACTIONS");
    opt.annotations = gha && !strcmp(gha, "true");
    struct results_hooks hooks = {note, NULL};
    struct results_report rep;
    struct ci_error err;
    if (results_run(&opt, &hooks, &rep, &err) < 0) {
        fprintf(stderr, "judge results: %s\n", err.msg);
        return err.status == CI_STATUS_USAGE ? EXIT_USAGE : EXIT_INTERNAL;
    }
    for (size_t i = 0; i < rep.n_annotations; i++)
        printf("%s\n", rep.annotations[i]);
    printf("results: %" PRIu64 " match%s, %" PRIu32 " player%s, %" PRIu64 " violation%s; skipped %" PRIu64
           " damaged and %" PRIu64 " duplicate of %" PRIu64 " file%s -> %s\n",
           rep.matches, rep.matches == 1 ? "" : "es", rep.players, rep.players == 1 ? "" : "s", rep.violations,
           rep.violations == 1 ? "" : "s", rep.skipped_damaged, rep.skipped_duplicate, rep.files,
           rep.files == 1 ? "" : "s", opt.out_dir);
    if (rep.best_effort_matches)
        print_escaped(stdout, "results: %" PRIu64 " of %" PRIu64 " matches ran with best-effort isolation "
                      "(not fully on: %s): standings.md and summary.md say so\n",
                      rep.best_effort_matches, rep.matches, rep.best_effort_layers);
    if (rep.below_fail_under)
        printf("results: %" PRIu32 " player%s below the pass mark of %" PRId64 " points\n",
               rep.below_fail_under, rep.below_fail_under == 1 ? "" : "s", opt.fail_under);
    results_report_free(&rep);
    if (rep.shard_problems)
        printf("results: %" PRIu64 " problem%s with the tournament's shards: summary.md lists %s\n",
               rep.shard_problems, rep.shard_problems == 1 ? "" : "s",
               rep.shard_problems == 1 ? "it" : "them");
    if (rep.skipped_damaged || rep.shard_problems)
        return EXIT_USAGE;
    return rep.below_fail_under ? EXIT_FAILURE_RESULT : EXIT_OK;
}
