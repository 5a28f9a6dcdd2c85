/* tournament_progress.c - the text of the progress bar and of one match's line
 * (judge/tournament/tournament.h); judge/cli/cmd_tournament.c prints them. */
#include "judge/tournament/tournament.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#define BAR_MIN 10
#define BAR_MAX 40

static void clock_text(double seconds, char *out, size_t size)
{
    unsigned long s = (unsigned long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, size, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, size, "%lu:%02lu", s / 60, s % 60);
}

void tournament_progress_bar(const struct tournament_progress *p, uint64_t now_ns, int width, char *out,
                             size_t size)
{
    double elapsed = now_ns > p->started_ns ? (double)(now_ns - p->started_ns) / 1e9 : 0;
    double rate = elapsed > 0 ? (double)p->done_now / elapsed : 0;
    char figures[128], left[32] = "--:--";
    if (rate > 0 || p->done >= p->total)
        clock_text(p->done >= p->total ? 0 : (double)(p->total - p->done) / rate, left, sizeof left);
    int n =
        snprintf(figures, sizeof figures, " %zu/%zu  %.1f matches/s  %s left", p->done, p->total, rate, left);
    if (p->failed) snprintf(figures + n, sizeof figures - (size_t)n, "  %zu failed", p->failed);
    int bar = width - (int)strlen(figures) - 2;
    bar = bar > BAR_MAX ? BAR_MAX : bar < BAR_MIN ? BAR_MIN : bar;
    int filled = p->total ? (int)((double)bar * (double)p->done / (double)p->total) : bar;
    char cells[BAR_MAX + 1];
    for (int i = 0; i < bar; i++) cells[i] = i < filled ? '#' : '.';
    cells[bar] = '\0';
    snprintf(out, size, "[%s]%s", cells, figures);
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *m;
    return json_object_object_get_ex(o, key, &m) && json_object_is_type(m, json_type_string)
               ? json_object_get_string(m)
               : NULL;
}

static int int_of(json_object *o, const char *key)
{
    json_object *m;
    return json_object_object_get_ex(o, key, &m) ? json_object_get_int(m) : 0;
}

void tournament_progress_line(const struct tournament_progress *p, const char *id, json_object *line,
                              struct strbuf *out)
{
    const char *winner = str_of(line, "winner");
    int rc = sb_printf(out, "%zu/%zu %s: ", p->done, p->total, id);
    rc |= winner ? sb_printf(out, "%s wins", winner) : sb_puts(out, "draw");
    int rounds = int_of(line, "rounds");
    rc |= sb_printf(out, " after %d %s (", rounds, game_rounds_word(p->game, rounds));
    json_object *players;
    if (json_object_object_get_ex(line, "players", &players) && json_object_is_type(players, json_type_array))
        for (size_t i = 0; i < json_object_array_length(players); i++) {
            json_object *pl = json_object_array_get_idx(players, i);
            const char *name = str_of(pl, "name"), *verdict = str_of(pl, "verdict");
            rc |= sb_printf(out, "%s%s %d %s", i ? ", " : "", name ? name : "?", int_of(pl, "place"),
                            verdict ? verdict : "?");
        }
    if (rc == 0) sb_putc(out, ')');
}
