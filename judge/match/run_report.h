/*
 * run_report.h - one jail_report as one JSON object: the report `judge exec`
 * writes, and the form every other command uses to record a run.
 *
 * {"verdict":"OK","exit_code":0,"signal":0,"cpu_ns":N,"wall_ns":N,
 *  "memory_peak_bytes":N (the cgroup's peak),"rss_peak_bytes":N (the peak RSS, ru_maxrss),
 *  "syscall":null | {"name","arch","nr","args":[6]},
 *  "isolation":{"user_ns":"on",...,"cgroup":"v1","privileged":true,
 *               "degraded":false,"how":{layer: text, for layers not on}},
 *  "note":"..."}
 */
#ifndef JUDGE_RUN_REPORT_H
#define JUDGE_RUN_REPORT_H

struct jail_error; /* jail.h uses it before declaring it */
#include "sandbox/jail.h"

struct json_object;

/* New JSON objects (the caller puts them); NULL when out of memory. */
struct json_object *isolation_report_to_json(const struct isolation_report *iso);
struct json_object *run_report_to_json(const struct jail_report *r);

/* The report as one line of JSON ending in '\n'; caller frees. NULL when out of memory. */
char *run_report_format(const struct jail_report *r);

/* Read a report back (replays, tests). Every key above must be present and well typed. */
int run_report_from_json(const struct json_object *obj, struct jail_report *r, struct jail_error *err);
int isolation_report_from_json(const struct json_object *obj, struct isolation_report *iso,
                               struct jail_error *err);

#endif
