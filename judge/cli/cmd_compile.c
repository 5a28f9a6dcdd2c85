/* cmd_compile.c - `judge compile --profile NAME SRC_DIR --out BOT_DIR`: compile one
 * submission in the jail (judge/compile/compile.h) and say how it went. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/cli_args.h"
#include "judge/cli/cli_isolation.h"
#include "judge/cli/cmd_print.h"
#include "judge/cli/commands.h"
#include "judge/compile/compile.h"
#include "replay/replay.h"

struct compile_options {
    const char *profile, *profiles_dir, *src_dir, *bot_dir, *player, *record_path;
    bool json;
    enum isolation_mode mode;
};

static const char usage_text[] =
    "usage: judge compile --profile NAME SRC_DIR --out BOT_DIR [OPTIONS]\n"
    "Compile the submission in SRC_DIR in the jail with a language profile\n"
    "(containers/NAME.yaml) into BOT_DIR (made if missing, with its parents;\n"
    "it must be empty).\n"
    "Exit status: 0 compiled, 1 any other verdict (COMPILE_ERROR, CPU_LIMIT, ...),\n"
    "2 a usage error or a bad profile, 3 an internal error or strict isolation refused\n"
    "on this machine (one line names the layers not fully on; `judge doctor` says how to\n"
    "get them, or use --isolation best-effort), 4 the disk is full or read-only for the\n"
    "record (the verdict is printed all the same).\n"
    "\n"
    "  --profile NAME      the language: c, cpp, python3, java, ... (or the path of a profile file)\n"
    "  --out BOT_DIR       where the compiled bot goes\n"
    "  --profiles DIR      where profiles are (default: $JUDGE_PROFILES, containers/ of the\n"
    "                      source tree, or the installed share/judge/containers)\n"
    "  --player NAME       the player named in the record (default: SRC_DIR's last component)\n"
    "  --record FILE       write the compile record there (one gzip JSON line; missing\n"
    "                      directories are made; a FILE that cannot be is refused before compiling)\n"
    "  --json              print the result as one JSON object instead of text\n"
    "  --isolation MODE    strict (default) or best-effort\n"
    "  --help              show this\n";

enum option_id {
    OPT_PROFILE = 256,
    OPT_OUT,
    OPT_PROFILES,
    OPT_PLAYER,
    OPT_RECORD,
    OPT_JSON,
    OPT_ISOLATION,
    OPT_HELP
};

static const struct option long_options[] = {
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"out", required_argument, NULL, OPT_OUT},
    {"profiles", required_argument, NULL, OPT_PROFILES},
    {"player", required_argument, NULL, OPT_PLAYER},
    {"record", required_argument, NULL, OPT_RECORD},
    {"json", no_argument, NULL, OPT_JSON},
    {"isolation", required_argument, NULL, OPT_ISOLATION},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

#define usage_error(...) cli_usage_error("compile", " (see judge compile --help)", __VA_ARGS__)

static int set_option(int id, const char *arg, struct compile_options *o)
{
    switch (id) {
    case OPT_PROFILE:
        o->profile = arg;
        break;
    case OPT_OUT:
        o->bot_dir = arg;
        break;
    case OPT_PROFILES:
        o->profiles_dir = arg;
        break;
    case OPT_PLAYER:
        o->player = arg;
        break;
    case OPT_RECORD:
        o->record_path = arg;
        break;
    case OPT_JSON:
        o->json = true;
        break;
    case OPT_ISOLATION:
        if (!strcmp(arg, "strict") || !strcmp(arg, "best-effort"))
            o->mode = strcmp(arg, "strict") ? ISOLATION_BEST_EFFORT : ISOLATION_STRICT;
        else
            return usage_error("--isolation is strict or best-effort, not '%s'", arg);
        break;
    }
    return -1;
}

/* The last component of a directory path, for the default player name. */
static const char *last_component(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s", path);
    for (size_t n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--) buf[n - 1] = '\0';
    const char *slash = strrchr(buf, '/');
    return slash && slash[1] ? slash + 1 : buf;
}

/* Returns -1 when parsed, otherwise the exit status to return now. */
static int parse_options(int argc, char **argv, struct compile_options *o)
{
    opterr = 0;
    optind = 1;
    int id;
    while ((id = getopt_long(argc, argv, ":", long_options, NULL)) != -1) {
        if (id == OPT_HELP) return fputs(usage_text, stdout), EXIT_OK;
        if (id == ':') return usage_error("option %s needs a value", argv[optind - 1]);
        if (id == '?') return usage_error("unknown option '%s'", argv[optind - 1]);
        int rc = set_option(id, optarg, o);
        if (rc >= 0) return rc;
    }
    if (optind != argc - 1)
        return usage_error(optind >= argc ? "no SRC_DIR given" : "one SRC_DIR only, got '%s' too",
                           argv[argc - 1]);
    o->src_dir = argv[optind];
    if (!o->profile) return usage_error("--profile NAME is required");
    if (!o->bot_dir) return usage_error("--out BOT_DIR is required");
    return -1;
}

static void print_text(const struct compile_options *o, const struct compile_result *r)
{
    printf("%s profile=%s exit=%d cpu=%llu ms wall=%llu ms", compile_verdict_name(r->verdict), o->profile,
           r->exit_code, (unsigned long long)(r->cpu_ns / 1000000),
           (unsigned long long)(r->wall_ns / 1000000));
    if (r->has_syscall) printf(" syscall=%s", r->syscall.name);
    if (r->verdict != COMPILE_OK && r->note[0]) print_escaped(stdout, ": %s", r->note);
    print_escaped(stdout, r->verdict == COMPILE_OK ? " -> %s\n" : "\n", o->bot_dir);
    if (r->messages_len) print_untrusted(stdout, r->messages, r->messages_len);
}

static int print_result(const struct compile_options *o, const struct compile_record *rec)
{
    if (o->json) {
        char *json = compile_record_format(rec);
        if (!json) return fprintf(stderr, "judge compile: out of memory\n"), EXIT_INTERNAL;
        printf("%s\n", json);
        free(json);
    } else {
        print_text(o, rec->result);
    }
    if (fflush(stdout) == EOF)
        return fprintf(stderr, "judge compile: cannot write to stdout\n"), EXIT_INTERNAL;
    return EXIT_OK;
}

/* The verdict is printed first: a record that cannot be written then does not hide it. */
static int report(const struct compile_options *o, const struct language_profile *p,
                  const struct compile_result *r, struct replay_writer **record)
{
    char name_buf[4096];
    struct compile_record rec = {o->player ? o->player
                                           : last_component(o->src_dir, name_buf, sizeof name_buf),
                                 p->name, o->src_dir, r};
    int rc = print_result(o, &rec);
    struct compile_error err;
    bool replaced = false;
    if (*record && compile_record_commit(*record, &rec, &replaced, &err) < 0) {
        fprintf(stderr, "judge compile: %s\n", err.msg);
        rc = EXIT_IO;
    }
    if (replaced)
        fprintf(stderr, "judge compile: note: replaced the existing file %s (named by --record)\n",
                o->record_path);
    *record = NULL;
    if (rc != EXIT_OK) return rc;
    return r->verdict == COMPILE_OK               ? EXIT_OK
           : r->verdict == COMPILE_INTERNAL_ERROR ? EXIT_INTERNAL
                                                  : EXIT_FAILURE_RESULT;
}

static int compile(const struct compile_options *o, const struct language_profile *p,
                   struct replay_writer **record)
{
    struct isolation_report probe;
    jail_global_expect_profile(p->compile.seccomp);
    int ready = cli_isolation_ready("compile", o->mode, NULL, &probe);
    if (ready != EXIT_OK) return ready;
    struct compile_request req = {p, o->src_dir, o->bot_dir, o->mode};
    struct compile_result *r = malloc(sizeof *r);
    struct compile_error err;
    if (!r) return fprintf(stderr, "judge compile: out of memory\n"), EXIT_INTERNAL;
    int rc = compile_submission(&req, r, &err) < 0 ? -1 : report(o, p, r, record);
    if (rc < 0) {
        fprintf(stderr, "judge compile: %s\n", err.msg);
        rc = err.request ? EXIT_USAGE : EXIT_INTERNAL;
    }
    free(r);
    return rc;
}

/* --record's file, made before compiling: a path that cannot take it is refused now,
 * not after the work. Returns -1 when opened (or not asked for), else the exit status. */
static int open_record(const struct compile_options *o, struct replay_writer **record)
{
    struct compile_error err;
    *record = NULL;
    if (!o->record_path || compile_record_open(o->record_path, record, &err) == 0) return -1;
    fprintf(stderr, "judge compile: %s\n", err.msg);
    return err.request ? EXIT_USAGE : EXIT_IO;
}

int cmd_compile(int argc, char **argv)
{
    struct compile_options o = {.mode = ISOLATION_STRICT};
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0) return rc;
    signal(SIGPIPE, SIG_IGN);
    struct language_profile profile;
    struct lp_error lerr;
    if (language_profile_find(o.profile, o.profiles_dir, &profile, &lerr) < 0) {
        fprintf(stderr, "judge compile: %s\n", lerr.msg);
        return EXIT_USAGE;
    }
    struct replay_writer *record;
    rc = open_record(&o, &record);
    if (rc < 0) rc = compile(&o, &profile, &record);
    if (record) replay_writer_abort(record); /* not compiled: no record */
    language_profile_free(&profile);
    return rc;
}
