/*
 * cmd_run_print.c - what `judge run` prints for a played match: a table with a header (place,
 * player number, name, verdict, moves, CPU, memory), and under a player that broke a rule why
 * (round, reply, the reason, what it sent or called), the last line of its stderr, and for a
 * bot at the wall limit a hint: what came of its reply (nothing from a mostly idle bot: probably
 * never flushed; only part of it: no newline or no flush at its end) or that it was computing.
 * Text from a bot is escaped before the terminal sees it.
 */
#include "judge/cli/cmd_run_print.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ci/escape.h"
#include "judge/cli/cmd_print.h"
#include "judge/cli/stderr_line.h"

/* Players by place, then by player number. */
void run_place_order(const struct match_outcome *o, int *order)
{
    for (int i = 0; i < o->players; i++)
        order[i] = i + 1;
    for (int i = 1; i < o->players; i++)
        for (int j = i; j > 0; j--) {
            const struct match_player_outcome *a = &o->p[order[j - 1]], *b = &o->p[order[j]];
            if (a->place < b->place || (a->place == b->place && a->player < b->player))
                break;
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static void verdict_text(const struct match_player_outcome *po, char *out, size_t size)
{
    if (po->verdict == MATCH_FORBIDDEN_SYSCALL && po->violation.has_syscall)
        snprintf(out, size, "%s(%s)", match_verdict_name(po->verdict), po->violation.syscall.name);
    else
        snprintf(out, size, "%s", match_verdict_name(po->verdict));
}

/* Prints s[0..n) escaped (control bytes as \xHH, invalid UTF-8 replaced). */
static void put_escaped(const char *s, size_t n)
{
    struct strbuf sb = STRBUF_INIT;
    if (esc_visible(&sb, s, n) == 0 && sb.len)
        fwrite(sb.data, 1, sb.len, stdout);
    sb_free(&sb);
}

/* How many lines the stderr tail holds. */
static int count_lines(const char *tail, size_t n)
{
    int lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += tail[i] == '\n' || (i + 1 == n && tail[i] != '\n');
    return lines;
}

/* A violation was recorded, whether or not it ended the player's game (a warlight or bomberman
 * bot plays on after one: its outcome's violation.kind, the kind that ended its game, is NONE). */
bool run_broke_a_rule(const struct match_player_outcome *po)
{
    return po->violation.verdict != MATCH_OK;
}

/* A wall limit's bot that spent less than this share of the time waited on the CPU was mostly
 * idle: waiting for input, or asleep, rather than computing. */
#define IDLE_SHARE_DIVISOR 4

enum run_hint run_hint_of(const struct match_player_outcome *po)
{
    const struct match_violation *v = &po->violation;
    if (po->verdict != MATCH_WALL_LIMIT || !run_broke_a_rule(po))
        return RUN_HINT_NONE;
    if (v->has_line)
        return v->line_cut_short ? RUN_HINT_CUT_SHORT : RUN_HINT_NONE;
    return v->cpu_waited_ns * IDLE_SHARE_DIVISOR < v->figure_ns ? RUN_HINT_FLUSH : RUN_HINT_BUSY;
}

const char *run_hint_summary(enum run_hint hint)
{
    switch (hint) {
    case RUN_HINT_FLUSH:
        return "not a byte of the reply arrived: flush the output after every reply, and read stdin a line "
               "at a time, not to its end";
    case RUN_HINT_CUT_SHORT:
        return "part of the reply arrived but not its end: end every line with a newline and flush after "
               "the reply";
    case RUN_HINT_BUSY:
        return "the bot was computing, not waiting for input, when the time was up: make it answer sooner";
    case RUN_HINT_NONE:
        break;
    }
    return NULL;
}

static void print_why(const struct match_player_outcome *po, int indent)
{
    const struct match_violation *v = &po->violation;
    printf("%*swhy: round %d, reply %d: ", indent, "", v->round, v->reply);
    put_escaped(v->reason, strnlen(v->reason, sizeof v->reason));
    if (v->limit_ns)
        printf(v->verdict == MATCH_WALL_LIMIT ? " (limit %" PRIu64 " ms, waited %" PRIu64 " ms)"
                                              : " (budget %" PRIu64 " ms, used %" PRIu64 " ms)",
               v->limit_ns / 1000000, v->figure_ns / 1000000);
    if (v->limit_bytes)
        printf(" (limit %" PRIu64 " MiB, peak %.1f MiB)", v->limit_bytes >> 20, (double)v->figure_bytes / (1 << 20));
    if (v->has_line) {
        fputs("; sent \"", stdout);
        put_escaped(v->line, v->line_len);
        fputc('"', stdout);
        if (v->line_cut_short && (v->line_len == 0 || v->line[v->line_len - 1] != '\n'))
            fputs(" and no newline after it", stdout);
    }
    putchar('\n');
}

static void print_stderr(const struct match_player_outcome *po, int indent)
{
    size_t len, n = po->stderr_tail ? strlen(po->stderr_tail) : 0;
    bool above_trace;
    const char *line = n ? stderr_shown_line(po->stderr_tail, n, &len, &above_trace) : NULL;
    if (!line || !len)
        return;
    const char *which = above_trace                              ? " (above its stack trace)"
                        : count_lines(po->stderr_tail, n) > 1 ? " (its last line)"
                                                              : "";
    printf("%*sstderr%s: ", indent, "", which);
    put_escaped(line, len);
    putchar('\n');
}

/* text's lines at the indent, the first after "hint: ", the others under it. */
static void put_hint(int indent, const char *text)
{
    const char *lead = "hint: ";
    while (*text) {
        size_t n = strcspn(text, "\n");
        printf("%*s%s%.*s\n", indent, "", lead, (int)n, text);
        lead = "      ";
        text += n + (text[n] == '\n');
    }
}

static const char flush_hint[] =
    "not a byte of the reply arrived, and the bot was mostly idle. If it printed the reply, it\n"
    "is still in its output buffer (a pipe is fully buffered): flush after every reply (C:\n"
    "fflush(stdout); C++: std::endl or std::flush; Python: print(..., flush=True); Java:\n"
    "System.out.flush()). Or it waits for more input than the judge sent: read one line at a\n"
    "time (Python: sys.stdin.readline()), not all of stdin at once (sys.stdin.read()), which\n"
    "waits for the end of the game.";
static const char cut_short_hint[] =
    "part of the reply arrived (sent, above), but not its end: end every line of a reply\n"
    "with a newline (\"\\n\") and flush after the reply (C: fflush(stdout); Python:\n"
    "print(..., flush=True)).";
static const char busy_hint[] =
    "the bot was computing, not waiting for input: it used %" PRIu64 " ms of CPU in the %" PRIu64 " ms\n"
    "waited. It had not finished when the time was up (an endless loop?): make it answer\n"
    "sooner.";

static void print_hint(const struct match_player_outcome *po, int indent)
{
    const struct match_violation *v = &po->violation;
    char busy[sizeof busy_hint + 64];
    switch (run_hint_of(po)) {
    case RUN_HINT_FLUSH:
        put_hint(indent, flush_hint);
        break;
    case RUN_HINT_CUT_SHORT:
        put_hint(indent, cut_short_hint);
        break;
    case RUN_HINT_BUSY:
        snprintf(busy, sizeof busy, busy_hint, v->cpu_waited_ns / 1000000, v->figure_ns / 1000000);
        put_hint(indent, busy);
        break;
    case RUN_HINT_NONE:
        break;
    }
}

static void cpu_text(const struct match_player_outcome *po, char *out, size_t size)
{
    if (po->budget_ns)
        snprintf(out, size, "%" PRIu64 "/%" PRIu64 " ms", po->cpu_ns / 1000000, po->budget_ns / 1000000);
    else
        snprintf(out, size, "%" PRIu64 "/off ms", po->cpu_ns / 1000000);
}

struct columns {
    int name, verdict, moves, cpu;
};

static struct columns widths(const struct match_setup *s, const struct match_outcome *o)
{
    struct columns w = {4, 7, 5, 10};
    for (int p = 1; p <= o->players; p++) {
        char verdict[80], figure[64];
        int n = (int)strlen(s->players[p - 1].name);
        w.name = n > w.name ? n : w.name;
        verdict_text(&o->p[p], verdict, sizeof verdict);
        n = (int)strlen(verdict);
        w.verdict = n > w.verdict ? n : w.verdict;
        n = snprintf(figure, sizeof figure, "%d", o->p[p].moves);
        w.moves = n > w.moves ? n : w.moves;
        cpu_text(&o->p[p], figure, sizeof figure);
        n = (int)strlen(figure);
        w.cpu = n > w.cpu ? n : w.cpu;
    }
    return w;
}

/* "12.3 / 12.1 MiB", or "- / 12.1 MiB" without a cgroup's figure. */
static void memory_text(const struct match_player_outcome *po, bool cgroup_memory, char *out, size_t size)
{
    char peak[32] = "-";
    if (cgroup_memory) snprintf(peak, sizeof peak, "%.1f", (double)po->memory_peak_bytes / (1 << 20));
    snprintf(out, size, "%s / %.1f MiB", peak, (double)po->rss_peak_bytes / (1 << 20));
}

static void print_player(const struct match_setup *s, const struct match_player_outcome *po,
                         const struct columns *w, bool cgroup_memory)
{
    char verdict[80], place[16], cpu[64], memory[80];
    verdict_text(po, verdict, sizeof verdict);
    snprintf(place, sizeof place, po->place > 0 ? "%d" : "-", po->place);
    cpu_text(po, cpu, sizeof cpu);
    memory_text(po, cgroup_memory, memory, sizeof memory);
    const char *name = s->players[po->player - 1].name;
    printf("%-5s  %-6d  ", place, po->player);
    put_escaped(name, strlen(name));
    printf("%*s  %-*s  %*d  %*s  %s\n", w->name - (int)strlen(name), "", w->verdict, verdict, w->moves,
           po->moves, w->cpu, cpu, memory);
    if (!run_broke_a_rule(po))
        return;
    int indent = 7 + 8; /* under the name */
    print_why(po, indent);
    print_stderr(po, indent);
    print_hint(po, indent);
}

/* "result: NAME wins after R rounds", or "result: draw between A and B after R rounds". */
static void print_result_line(const struct match_setup *s, const struct match_outcome *o)
{
    const char *rounds = game_rounds_word(s->rules->name, o->rounds);
    if (o->winner > 0) {
        print_escaped(stdout, "result: %s wins after %d %s\n", s->players[o->winner - 1].name, o->rounds, rounds);
        return;
    }
    printf("result: draw");
    const char *sep = " between ";
    for (int p = 1; p <= o->players; p++)
        if (o->p[p].place == 1) {
            print_escaped(stdout, "%s%s", sep, s->players[p - 1].name);
            sep = " and ";
        }
    printf(" after %d %s\n", o->rounds, rounds);
}

void run_print_text(const struct match_setup *s, const struct match_outcome *o, const char *replay,
                    const struct isolation_report *probe)
{
    bool cgroup_memory = probe->state[LAYER_MEMORY_LIMIT] == LAYER_ON;
    int order[GAME_MAX_PLAYERS];
    run_place_order(o, order);
    struct columns w = widths(s, o);
    printf("place  player  %-*s  %-*s  %*s  %*s  memory: cgroup peak / peak RSS\n", w.name, "name", w.verdict,
           "verdict", w.moves, "moves", w.cpu, "cpu/budget");
    for (int i = 0; i < o->players; i++)
        print_player(s, &o->p[order[i]], &w, cgroup_memory);
    print_result_line(s, o);
    if (replay)
        printf("replay: %s\n", replay);
}
