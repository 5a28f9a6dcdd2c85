/* cmd_replay.c - `judge replay verify|export|dump|prompts`: check, convert or show a replay. */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "engine/strbuf.h"
#include "judge/cli/commands.h"
#include "judge/verify/replay_verify.h"

static const char usage_text[] =
    "usage: judge replay verify FILE\n"
    "       judge replay export --format GAME-log FILE [-o OUT]\n"
    "       judge replay dump FILE\n"
    "       judge replay prompts FILE\n"
    "\n"
    "verify  replays every recorded reply through the engine and compares its events and\n"
    "        result with the recorded ones (exit 1 at the first difference)\n"
    "export  writes the game's original log format (e.g. generals-log), from a verified replay\n"
    "dump    prints the JSON lines uncompressed\n"
    "prompts verifies, and prints what the engine tells each player before each of its recorded\n"
    "        inputs, one JSON line each: {\"input\":N,\"player\":P,\"round\":R,\"prompt\":TEXT}\n"
    "        (the state after input N - 1, as that player sees it)\n";

static int usage_error(const char *what)
{
    fprintf(stderr, "judge replay: %s (see judge replay --help)\n", what);
    return EXIT_USAGE;
}

static int verify(int argc, char **argv)
{
    if (argc != 2)
        return usage_error("verify takes one replay file");
    struct replay_verify_report rep;
    struct replay_error err;
    if (replay_verify(argv[1], NULL, &rep, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE_RESULT;
    }
    printf("%s: ok (%d replies, result matches)\n", argv[1], rep.replies);
    return EXIT_OK;
}

static int dump(int argc, char **argv)
{
    if (argc != 2)
        return usage_error("dump takes one replay file");
    struct replay_reader *rd;
    struct replay_error err;
    struct json_object *obj;
    if (replay_reader_open(argv[1], &rd, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE_RESULT;
    }
    int rc;
    struct strbuf line = STRBUF_INIT;
    /* Each line as it is, but strict: a control byte json-c took raw in a string, or a C1
     * control, reaches the terminal as its \u escape, the same JSON. */
    while ((rc = replay_reader_next(rd, &obj, &err)) == 1) {
        size_t len;
        const char *text = replay_reader_text(rd, &len);
        sb_reset(&line);
        if (sb_json_text_strict(&line, text, len) < 0 || sb_putc(&line, '\n') < 0) {
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", argv[1]);
            rc = -1;
        } else {
            fwrite(line.data, 1, line.len, stdout);
        }
        json_object_put(obj);
        if (rc < 0)
            break;
    }
    sb_free(&line);
    replay_reader_close(rd);
    if (rc < 0) {
        fflush(stdout);
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE_RESULT;
    }
    return EXIT_OK;
}

static int print_prompt(void *ctx, int input, int player, int round, const char *prompt, size_t len)
{
    struct strbuf *line = ctx;
    sb_reset(line);
    if (sb_printf(line, "{\"input\":%d,\"player\":%d,\"round\":%d,\"prompt\":", input, player, round) < 0 ||
        sb_json_string(line, prompt, len) < 0 || sb_puts(line, "}\n") < 0)
        return -1;
    return fwrite(line->data, 1, line->len, stdout) == line->len ? 0 : -1;
}

static int prompts(int argc, char **argv)
{
    if (argc != 2)
        return usage_error("prompts takes one replay file");
    struct strbuf line = STRBUF_INIT;
    struct replay_error err;
    int rc = replay_prompts(argv[1], print_prompt, &line, &err);
    sb_free(&line);
    if (rc < 0) {
        fflush(stdout);
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE_RESULT;
    }
    return EXIT_OK;
}

static int export_log(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'}, {NULL, 0, NULL, 0}};
    const char *format = NULL, *out = NULL;
    int opt;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
        if (opt == 'f')
            format = optarg;
        else if (opt == 'o')
            out = optarg;
        else
            return usage_error(opt == ':' ? "an option needs a value" : "unknown export option");
    }
    if (!format)
        return usage_error("export needs --format");
    if (argc - optind != 1)
        return usage_error("export takes one replay file");
    struct strbuf text = STRBUF_INIT;
    struct replay_error err;
    int rc = replay_export(argv[optind], format, out, &text, &err);
    if (rc == 0 && !out)
        fwrite(text.data ? text.data : "", 1, text.len, stdout);
    sb_free(&text);
    if (rc < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return EXIT_FAILURE_RESULT;
    }
    return EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("expected verify, export or dump");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "verify"))
        return verify(argc - 1, argv + 1);
    if (!strcmp(argv[1], "export"))
        return export_log(argc - 1, argv + 1);
    if (!strcmp(argv[1], "dump"))
        return dump(argc - 1, argv + 1);
    if (!strcmp(argv[1], "prompts"))
        return prompts(argc - 1, argv + 1);
    return usage_error("expected verify, export or dump");
}
