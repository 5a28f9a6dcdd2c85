/* cmd_mapgen.c - `judge mapgen GAME ...`: generate a map with the game's own generator. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "engine/strbuf.h"
#include "judge/commands.h"
#include "judge/atomic_file.h"

static const char usage_text[] =
    "usage: judge mapgen GAME --rows N --cols M --players K --seed S [--mountains PCT]\n"
    "                    [--cities N] [--symmetric] [--city-army-min A] [--city-army-max B]\n"
    "                    [--min-capital-dist D] [-o FILE]\n"
    "Writes a map in the game's own format to stdout, or to FILE (replaced atomically).\n"
    "Notes, such as a lowered capital distance, go to stderr.\n";

/* Each command-line option and the generator option it sets (engine/game.h game_option). */
enum { OPT_HELP = 'h', OPT_OUTPUT = 'o', OPT_SEED = 256, OPT_SYMMETRIC, OPT_FIRST_NUMERIC };
static const struct numeric_option { const char *flag, *option; bool required; } numeric_options[] = {
    {"rows", "rows", true},
    {"cols", "cols", true},
    {"players", "players", true},
    {"mountains", "mountains", false},
    {"cities", "cities", false},
    {"city-army-min", "city_army_min", false},
    {"city-army-max", "city_army_max", false},
    {"min-capital-dist", "min_capital_dist", false},
};
#define N_NUMERIC (sizeof numeric_options / sizeof numeric_options[0])

struct mapgen_request {
    const struct game_rules *rules;
    struct game_option opts[N_NUMERIC + 1];
    size_t n_opts;
    bool has_seed;
    uint64_t seed;
    const char *output;  /* NULL = stdout */
};

/* Prints "judge mapgen: MESSAGE (see ...)"; usage_error() also yields the exit status. */
static void __attribute__((format(printf, 1, 2))) print_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "judge mapgen: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'judge mapgen --help')\n");
    va_end(ap);
}
#define usage_error(...) (print_usage_error(__VA_ARGS__), EXIT_USAGE)

static bool parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno || (*s != '-' && (*s < '0' || *s > '9')))
        return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno)
        return false;
    *out = v;
    return true;
}

static bool has_option(const struct mapgen_request *req, const char *name)
{
    for (size_t i = 0; i < req->n_opts; i++)
        if (!strcmp(req->opts[i].name, name))
            return true;
    return false;
}

static int add_option(struct mapgen_request *req, const char *flag, const char *name, int64_t value)
{
    if (has_option(req, name))
        return usage_error("--%s is given twice", flag);
    req->opts[req->n_opts++] = (struct game_option){name, value};
    return EXIT_OK;
}

static int take_numeric(struct mapgen_request *req, const struct numeric_option *o, const char *arg)
{
    int64_t v;
    if (!parse_i64(arg, &v))
        return usage_error("--%s needs an integer, got '%.40s'", o->flag, arg);
    return add_option(req, o->flag, o->option, v);
}

static int take_seed(struct mapgen_request *req, const char *arg)
{
    if (req->has_seed)
        return usage_error("--%s is given twice", "seed");
    if (!parse_u64(arg, &req->seed))
        return usage_error("--seed needs an unsigned 64-bit integer, got '%.40s'", arg);
    req->has_seed = true;
    return EXIT_OK;
}

static void build_long_options(struct option *out)
{
    size_t n = 0;
    for (size_t i = 0; i < N_NUMERIC; i++)
        out[n++] = (struct option){numeric_options[i].flag, required_argument, NULL,
                                   OPT_FIRST_NUMERIC + (int)i};
    out[n++] = (struct option){"seed", required_argument, NULL, OPT_SEED};
    out[n++] = (struct option){"symmetric", no_argument, NULL, OPT_SYMMETRIC};
    out[n++] = (struct option){"output", required_argument, NULL, OPT_OUTPUT};
    out[n++] = (struct option){"help", no_argument, NULL, OPT_HELP};
    out[n] = (struct option){NULL, 0, NULL, 0};
}

/* One option from getopt; EXIT_OK to go on, -1 for --help, or an exit status. */
static int take_option(struct mapgen_request *req, int c, const char *arg, const char *word)
{
    if (c >= OPT_FIRST_NUMERIC && c < OPT_FIRST_NUMERIC + (int)N_NUMERIC)
        return take_numeric(req, &numeric_options[c - OPT_FIRST_NUMERIC], arg);
    switch (c) {
    case OPT_SEED:
        return take_seed(req, arg);
    case OPT_SYMMETRIC:
        return add_option(req, "symmetric", "symmetric", 1);
    case OPT_OUTPUT:
        if (req->output)
            return usage_error("-%s is given twice", "o");
        req->output = arg;
        return EXIT_OK;
    case OPT_HELP:
        return -1;
    case ':':
        return usage_error("%.40s needs a value", word);
    default:
        if (strchr(word, '=') && !strncmp(word, "--", 2))
            return usage_error("option '%.40s' takes no value, or is unknown", word);
        return usage_error("unknown option '%.40s'", word);
    }
}

static int check_complete(const struct mapgen_request *req)
{
    for (size_t i = 0; i < N_NUMERIC; i++)
        if (numeric_options[i].required && !has_option(req, numeric_options[i].option))
            return usage_error("--%s is required", numeric_options[i].flag);
    if (!req->has_seed)
        return usage_error("--%s is required", "seed");
    return EXIT_OK;
}

static int take_game(struct mapgen_request *req, const char *name)
{
    if (!name)
        return usage_error("missing GAME");
    req->rules = game_find(name);
    if (!req->rules)
        return usage_error("unknown game '%.40s'", name);
    if (!req->rules->map_generate)
        return usage_error("game '%.40s' has no map generator", name);
    return EXIT_OK;
}

/* Options from args[1..n) (args[0] is skipped); leaves optind at the first non-option. */
static int parse_options(int n, char **args, struct mapgen_request *req)
{
    struct option long_options[N_NUMERIC + 5];
    build_long_options(long_options);
    optind = 1;
    opterr = 0;
    for (;;) {
        int before = optind;
        int c = getopt_long(n, args, "+:o:h", long_options, NULL);
        if (c == -1)
            return EXIT_OK;
        int rc = take_option(req, c, optarg, before < n ? args[before] : "");
        if (rc != EXIT_OK)
            return rc;
    }
}

/* GAME comes first (or after the options); -1 when --help was asked for. */
static int parse_args(int argc, char **argv, struct mapgen_request *req)
{
    const char *game = NULL;
    int skip = 0;
    if (argc > 1 && argv[1][0] != '-') {
        game = argv[1];
        skip = 1;
    }
    int n = argc - skip;
    char **args = argv + skip;
    int rc = parse_options(n, args, req);
    if (rc != EXIT_OK)
        return rc;
    if (!game && optind < n)
        game = args[optind++];
    if (optind < n)
        return usage_error("unexpected argument '%.40s'", args[optind]);
    rc = take_game(req, game);
    return rc != EXIT_OK ? rc : check_complete(req);
}

static int write_output(const char *path, const char *text)
{
    if (!path) {
        if (fputs(text, stdout) == EOF || fflush(stdout) == EOF) {
            fprintf(stderr, "judge mapgen: cannot write to stdout: %s\n", strerror(errno));
            return EXIT_INTERNAL;
        }
        return EXIT_OK;
    }
    char err[320];
    if (atomic_file_write_whole(path, text, strlen(text), err, sizeof err) < 0) {
        fprintf(stderr, "judge mapgen: %s\n", err);
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

static void print_notes(const char *notes)
{
    while (notes && *notes) {
        size_t len = strcspn(notes, "\n");
        fprintf(stderr, "judge mapgen: %.*s\n", (int)len, notes);
        notes += len + (notes[len] == '\n');
    }
}

static int generate_and_write(const struct mapgen_request *req)
{
    struct game_map *map = NULL;
    struct strbuf notes = STRBUF_INIT, text = STRBUF_INIT;
    struct game_error gerr = {{0}, 0, 0};
    int rc = EXIT_OK;
    if (req->rules->map_generate(req->opts, req->n_opts, req->seed, &map, &notes, &gerr) < 0) {
        fprintf(stderr, "judge mapgen: %s\n", gerr.msg);
        rc = EXIT_USAGE;
    } else if (req->rules->map_write(map, &text) < 0 || !text.data) {
        fprintf(stderr, "judge mapgen: cannot write the map: out of memory\n");
        rc = EXIT_INTERNAL;
    } else {
        print_notes(notes.data);
        rc = write_output(req->output, text.data);
    }
    if (map)
        req->rules->map_free(map);
    sb_free(&notes);
    sb_free(&text);
    return rc;
}

int cmd_mapgen(int argc, char **argv)
{
    struct mapgen_request req = {0};
    int rc = parse_args(argc, argv, &req);
    if (rc == -1) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    return rc == EXIT_OK ? generate_and_write(&req) : rc;
}
