/* isolation_note.c - matches played with isolation not fully on (ci/isolation_note.h). */
#include "ci/isolation_note.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "ci/escape.h"
#include "ci/json_fields.h"

static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
            return true;
    return false;
}

/* Each layer once, in the order first met; a name that does not fit whole is left out. */
static void add_layer(struct results_report *rep, const char *name)
{
    char *list = rep->best_effort_layers;
    size_t len = strlen(list), size = sizeof rep->best_effort_layers;
    if (!listed(list, name) && len + strlen(name) + 2 < size)
        snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

/* One isolation report (`judge exec`'s shape): whether a layer was degraded or off. */
static bool add_report(struct results_report *rep, struct json_object *iso)
{
    bool degraded = false;
    if (!json_object_is_type(iso, json_type_object))
        return false;
    json_object_object_foreach(iso, layer, state) {
        const char *s = json_object_is_type(state, json_type_string) ? json_object_get_string(state) : "";
        if (strcmp(s, "degraded") && strcmp(s, "off"))
            continue;
        add_layer(rep, layer);
        degraded = true;
    }
    return degraded;
}

void isolation_note_add(struct results_report *rep, struct json_object *header)
{
    struct json_object *iso = jf_member(header, "isolation");
    bool degraded = false;
    if (json_object_is_type(iso, json_type_array))
        for (size_t i = 0; i < json_object_array_length(iso); i++)
            degraded |= add_report(rep, json_object_array_get_idx(iso, i));
    else
        degraded = add_report(rep, iso);
    rep->best_effort_matches += degraded;
}

int isolation_note_md(struct strbuf *sb, const struct results_report *rep)
{
    if (!rep->best_effort_matches)
        return 0;
    if (sb_printf(sb,
                  "**Isolation:** %" PRIu64 " of %" PRIu64 " match%s ran with best-effort isolation, these "
                  "layers not fully on: ",
                  rep->best_effort_matches, rep->matches, rep->matches == 1 ? "" : "es") < 0 ||
        esc_md_inline(sb, rep->best_effort_layers, strlen(rep->best_effort_layers)) < 0)
        return -1;
    return sb_puts(sb, " (each replay's header says what stood in for them).\n\n");
}
