/* cmd_doctor.c - `judge doctor [--json]`: check every isolation layer on this
 * machine, print a table (or JSON) and whether strict mode would run. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "judge/cli/commands.h"
#include "judge/container/container_detect.h"
#include "judge/match/run_report.h"
#include "sandbox/doctor_probe.h"

static const char usage_text[] =
    "usage: judge doctor [--json]\n"
    "Try every isolation layer on this machine (namespaces, pivot_root, seccomp,\n"
    "capabilities, no_new_privs, cgroups and their controllers, delegation) and\n"
    "say how to fix what is missing. Exit status 1 when strict mode would refuse.\n"
    "\n"
    "  --json   print the same as one JSON object\n"
    "  --help   show this\n";


static void print_verdict(const struct doctor_result *r)
{
    if (r->strict_available)
        printf("strict mode: available\n");
    else
        printf("strict mode: refused (missing: %s)\n", r->missing);
}

static void print_container_hints(const struct container_report *c)
{
    const char *engine = container_engine_name(c->facts.engine);
    for (size_t i = 0; i < c->count; i++)
        if (c->hints[i].flag[0])
            printf("missing %s flag: %s (%s)\n", engine, c->hints[i].flag, c->hints[i].why);
        else
            printf("no %s flag helps: %s\n", engine, c->hints[i].why);
}

static void print_table(const struct doctor_result *r, const struct container_report *c)
{
    size_t layer_w = strlen("layer"), detail_w = strlen("detail");
    for (size_t i = 0; i < r->count; i++) {
        if (strlen(r->rows[i].layer) > layer_w)
            layer_w = strlen(r->rows[i].layer);
        if (strlen(r->rows[i].detail) > detail_w)
            detail_w = strlen(r->rows[i].detail);
    }
    printf("%-*s | %-8s | %-*s | %s\n", (int)layer_w, "layer", "status", (int)detail_w, "detail", "fix");
    for (size_t i = 0; i < r->count; i++) {
        const struct doctor_row *row = &r->rows[i];
        printf("%-*s | %-8s | %-*s | %s\n", (int)layer_w, row->layer, doctor_status_name(row->status),
               (int)detail_w, row->detail, row->fix);
    }
    print_container_hints(c);
    print_verdict(r);
}

static struct json_object *row_to_json(const struct doctor_row *row)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "layer", json_object_new_string(row->layer));
    json_object_object_add(o, "status", json_object_new_string(doctor_status_name(row->status)));
    json_object_object_add(o, "detail", json_object_new_string(row->detail));
    json_object_object_add(o, "fix", json_object_new_string(row->fix));
    return o;
}

static struct json_object *missing_to_json(const struct doctor_result *r)
{
    struct json_object *list = json_object_new_array();
    for (int l = 0; l < LAYER_COUNT && !r->strict_available; l++)
        if (r->jail.state[l] != LAYER_ON)
            json_object_array_add(list, json_object_new_string(jail_layer_name(l)));
    if (!r->strict_available && json_object_array_length(list) == 0)
        json_object_array_add(list, json_object_new_string(r->missing));
    return list;
}

static int print_json(const struct doctor_result *r, const struct container_report *c)
{
    struct json_object *o = json_object_new_object();
    struct json_object *rows = json_object_new_array();
    for (size_t i = 0; i < r->count; i++)
        json_object_array_add(rows, row_to_json(&r->rows[i]));
    json_object_object_add(o, "rows", rows);
    json_object_object_add(o, "isolation", isolation_report_to_json(&r->jail));
    json_object_object_add(o, "strict", json_object_new_string(r->strict_available ? "available" : "refused"));
    json_object_object_add(o, "missing", missing_to_json(r));
    json_object_object_add(o, "container", container_report_to_json(c));
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = text ? 0 : -1;
    if (text)
        printf("%s\n", text);
    json_object_put(o);
    return rc;
}

int cmd_doctor(int argc, char **argv)
{
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else {
            fprintf(stderr, "judge doctor: unknown argument '%s' (see judge doctor --help)\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    struct doctor_result result;
    struct jail_error err;
    if (doctor_probe(&result, &err) < 0) {
        fprintf(stderr, "judge doctor: %s\n", err.msg);
        return EXIT_INTERNAL;
    }
    struct container_report container;
    container_detect(&result, &container);
    if (!json)
        print_table(&result, &container);
    else if (print_json(&result, &container) < 0) {
        fprintf(stderr, "judge doctor: out of memory\n");
        return EXIT_INTERNAL;
    }
    return result.strict_available ? EXIT_OK : EXIT_FAILURE_RESULT;
}
