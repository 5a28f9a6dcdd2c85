/*
 * isolation_note.h - the counted matches that ran with a layer of isolation not fully on
 * (best-effort: their header's `isolation`, one report or one per player, has a layer
 * "degraded" or "off"), and which layers, for the note of standings.md and summary.md and
 * judge results' own summary.
 */
#ifndef CI_ISOLATION_NOTE_H
#define CI_ISOLATION_NOTE_H

#include "ci/results.h"
#include "engine/strbuf.h"

struct json_object;

/* A counted match's header: counted in rep->best_effort_matches when a layer was not fully
 * on, its layers added to rep->best_effort_layers. */
void isolation_note_add(struct results_report *rep, struct json_object *header);
/* "**Isolation:** N of M matches ran with best-effort isolation: ...", then a blank line;
 * nothing when every match had every layer. */
int isolation_note_md(struct strbuf *sb, const struct results_report *rep);

#endif
