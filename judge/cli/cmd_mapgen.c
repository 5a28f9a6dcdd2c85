/* cmd_mapgen.c - `judge mapgen GAME ...`: generate a map with the game's own generator; each game
 * names its options (games[] below), and sea battle, which has no map, gets a random board. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/game.h"
#include "engine/seabattle.h"
#include "engine/strbuf.h"
#include "judge/cli/cli_args.h"
#include "judge/cli/commands.h"
#include "common/atomic_file.h"

static const char usage_text[] =
    "usage: judge mapgen generals --rows N --cols M --players K --seed S [--mountains PCT]\n"
    "                    [--cities N] [--symmetric] [--city-army-min A] [--city-army-max B]\n"
    "                    [--min-capital-dist D] [-o FILE]\n"
    "       judge mapgen seabattle --seed S [--ships-1 N] [--ships-2 N] [--ships-3 N]\n"
    "                    [--ships-4 N] [-o FILE]\n"
    "       judge mapgen bomberman --seed S [--players P] [--blocks PCT] [--bonuses N]\n"
    "                    [--symmetric] [-o FILE]\n"
    "Writes a map in the game's own format (for seabattle, which has no map, a random valid\n"
    "board) to stdout, or to FILE (replaced atomically, with a note when it existed).\n"
    "Notes, such as a lowered capital distance, go to stderr.\n";

/* Every option flag of every game's generator, and the generator option it sets
 * (engine/game.h game_option). A switch sets its option to 1. */
enum { OPT_HELP = 'h', OPT_OUTPUT = 'o', OPT_SEED = 256, OPT_FIRST_FLAG };
static const struct flag { const char *flag, *option; bool is_switch; } flags[] = {
    {"rows", "rows", false},
    {"cols", "cols", false},
    {"players", "players", false},
    {"mountains", "mountains", false},
    {"cities", "cities", false},
    {"city-army-min", "city_army_min", false},
    {"city-army-max", "city_army_max", false},
    {"min-capital-dist", "min_capital_dist", false},
    {"symmetric", "symmetric", true},
    {"ships-1", "ships_1", false},
    {"ships-2", "ships_2", false},
    {"ships-3", "ships_3", false},
    {"ships-4", "ships_4", false},
    {"blocks", "blocks", false},
    {"bonuses", "bonuses", false},
};
#define N_FLAGS (sizeof flags / sizeof flags[0])
#define MAX_GAME_FLAGS 16

struct mapgen_request;
/* Writes the generated text; on failure writes a one-line message to err. */
typedef int (*generate_fn)(const struct mapgen_request *req, struct strbuf *text, struct strbuf *notes,
                           char *err, size_t size);

/* What `judge mapgen GAME` accepts for each game, and how it generates. */
struct mapgen_game {
    const char *name;
    struct game_flag { const char *flag; bool required; } flags[MAX_GAME_FLAGS];
    generate_fn generate;
};

struct mapgen_request {
    const struct game_rules *rules;
    const struct mapgen_game *game;
    struct game_option opts[N_FLAGS];
    const struct flag *given[N_FLAGS];
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

/* ---- the games ------------------------------------------------------------------------- */

static int generate_with_rules(const struct mapgen_request *req, struct strbuf *text, struct strbuf *notes,
                               char *err, size_t size)
{
    struct game_map *map = NULL;
    struct game_error gerr = {{0}, 0, 0};
    int rc = req->rules->map_generate(req->opts, req->n_opts, req->seed, &map, notes, &gerr);
    if (rc < 0)
        snprintf(err, size, "%s", gerr.msg);
    else if ((rc = req->rules->map_write(map, text)) < 0)
        snprintf(err, size, "cannot write the map: out of memory");
    if (map)
        req->rules->map_free(map);
    return rc;
}

/* Sea battle has no map: a random board for the fleet (the game's defaults unless given). */
static int generate_sea_board(const struct mapgen_request *req, struct strbuf *text, struct strbuf *notes,
                              char *err, size_t size)
{
    (void)notes;
    struct sea_fleet fleet = sea_fleet_of(NULL);
    for (size_t i = 0; i < req->n_opts; i++) {
        int len = req->opts[i].name[strlen(req->opts[i].name) - 1] - '0';
        int64_t v = req->opts[i].value;
        fleet.count[len] = v < 0 || v > SEA_MAX_SHIPS ? -1 : (int)v;
    }
    struct game_error gerr = {{0}, 0, 0};
    if (sea_board_generate(&fleet, req->seed, text, &gerr) < 0) {
        snprintf(err, size, "%s", gerr.msg);
        return -1;
    }
    return 0;
}

static const struct mapgen_game games[] = {
    {"generals",
     {{"rows", true}, {"cols", true}, {"players", true}, {"mountains", false}, {"cities", false},
      {"city-army-min", false}, {"city-army-max", false}, {"min-capital-dist", false}, {"symmetric", false}},
     generate_with_rules},
    {"bomberman", {{"players", false}, {"blocks", false}, {"bonuses", false}, {"symmetric", false}},
     generate_with_rules},
    {"seabattle", {{"ships-1", false}, {"ships-2", false}, {"ships-3", false}, {"ships-4", false}},
     generate_sea_board},
};

static const struct game_flag *game_flag(const struct mapgen_game *g, const char *flag)
{
    for (size_t i = 0; i < MAX_GAME_FLAGS && g->flags[i].flag; i++)
        if (!strcmp(g->flags[i].flag, flag))
            return &g->flags[i];
    return NULL;
}

/* ---- reading the command line ------------------------------------------------------------- */

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

static bool has_option(const struct mapgen_request *req, const char *name)
{
    for (size_t i = 0; i < req->n_opts; i++)
        if (!strcmp(req->opts[i].name, name))
            return true;
    return false;
}

static int take_flag(struct mapgen_request *req, const struct flag *f, const char *arg)
{
    int64_t v = 1;
    if (!f->is_switch && !parse_i64(arg, &v))
        return usage_error("--%s needs an integer, got '%.40s'", f->flag, arg);
    if (has_option(req, f->option))
        return usage_error("--%s is given twice", f->flag);
    req->given[req->n_opts] = f;
    req->opts[req->n_opts++] = (struct game_option){f->option, v};
    return EXIT_OK;
}

static int take_seed(struct mapgen_request *req, const char *arg)
{
    if (req->has_seed)
        return usage_error("--%s is given twice", "seed");
    if (!cli_parse_u64(arg, &req->seed))
        return usage_error("--seed needs an unsigned 64-bit integer, got '%.40s'", arg);
    req->has_seed = true;
    return EXIT_OK;
}

static void build_long_options(struct option *out)
{
    size_t n = 0;
    for (size_t i = 0; i < N_FLAGS; i++)
        out[n++] = (struct option){flags[i].flag, flags[i].is_switch ? no_argument : required_argument, NULL,
                                   OPT_FIRST_FLAG + (int)i};
    out[n++] = (struct option){"seed", required_argument, NULL, OPT_SEED};
    out[n++] = (struct option){"output", required_argument, NULL, OPT_OUTPUT};
    out[n++] = (struct option){"help", no_argument, NULL, OPT_HELP};
    out[n] = (struct option){NULL, 0, NULL, 0};
}

/* One option from getopt; EXIT_OK to go on, -1 for --help, or an exit status. */
static int take_option(struct mapgen_request *req, int c, const char *arg, const char *word)
{
    if (c >= OPT_FIRST_FLAG && c < OPT_FIRST_FLAG + (int)N_FLAGS)
        return take_flag(req, &flags[c - OPT_FIRST_FLAG], arg);
    switch (c) {
    case OPT_SEED:
        return take_seed(req, arg);
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

/* Every option given belongs to the game, every required one is there, and the seed. */
static int check_complete(const struct mapgen_request *req)
{
    const struct mapgen_game *g = req->game;
    for (size_t i = 0; i < req->n_opts; i++)
        if (!game_flag(g, req->given[i]->flag))
            return usage_error("--%s is not an option of %s", req->given[i]->flag, g->name);
    for (size_t i = 0; i < MAX_GAME_FLAGS && g->flags[i].flag; i++) {
        const struct game_flag *f = &g->flags[i];
        bool given = false;
        for (size_t k = 0; k < req->n_opts; k++)
            given = given || !strcmp(req->given[k]->flag, f->flag);
        if (f->required && !given)
            return usage_error("--%s is required", f->flag);
    }
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
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (!strcmp(games[i].name, name))
            req->game = &games[i];
    if (!req->game)
        return usage_error("game '%.40s' has no map generator", name);
    return EXIT_OK;
}

/* Options from args[1..n) (args[0] is skipped); leaves optind at the first non-option. */
static int parse_options(int n, char **args, struct mapgen_request *req)
{
    struct option long_options[N_FLAGS + 4];
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

/* ---- writing ---------------------------------------------------------------------------------- */

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
    struct stat st;
    bool replacing = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    if (atomic_file_write_whole(path, text, strlen(text), err, sizeof err) < 0) {
        fprintf(stderr, "judge mapgen: %s\n", err);
        return EXIT_INTERNAL;
    }
    if (replacing)
        fprintf(stderr, "judge mapgen: note: replaced the existing file %s (named by --output)\n", path);
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
    struct strbuf notes = STRBUF_INIT, text = STRBUF_INIT;
    char err[300];
    int rc = EXIT_OK;
    if (req->game->generate(req, &text, &notes, err, sizeof err) < 0) {
        fprintf(stderr, "judge mapgen: %s\n", err);
        rc = EXIT_USAGE;
    } else if (!text.data) {
        fprintf(stderr, "judge mapgen: cannot write the map: out of memory\n");
        rc = EXIT_INTERNAL;
    } else {
        print_notes(notes.data);
        rc = write_output(req->output, text.data);
    }
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
