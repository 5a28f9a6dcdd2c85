/*
 * replay_load.h - one input file read whole, on any thread: the lines the
 * results stage uses (header, violations, result) kept as parsed objects, or
 * a compile record, or why the file is damaged. Every line is still checked
 * (replay/replay.h: each is JSON); events and replies are never built.
 */
#ifndef CI_REPLAY_LOAD_H
#define CI_REPLAY_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "ci/compile_read.h"
#include "engine/strbuf.h"

struct json_object;

enum loaded_kind { LOADED_REPLAY, LOADED_COMPILE, LOADED_DAMAGED, LOADED_FAILED };
/* A file up to this size is read whole, then inflated: its bytes serve its page too. */
#define LOADED_WHOLE_MAX (1 << 20)
/* The match's part of a page, made beside the reading (ci/html_report.c, on the same thread):
 * SHARED, its replay in base64 for a page of several matches; WRITTEN, a page of its own. */
enum loaded_page { PAGE_NONE, PAGE_SHARED, PAGE_WRITTEN, PAGE_KEPT, PAGE_TOO_BIG, PAGE_FAILED };

struct loaded_line {
    struct json_object *obj;
    int line;
};

struct loaded_file {
    char *path;
    struct strbuf bytes; /* the file's, when read whole (until its page is made) */
    enum loaded_kind kind;
    char msg[768];              /* DAMAGED: the whole message, naming the file; FAILED: the internal error */
    struct json_object *header; /* REPLAY */
    struct loaded_line result;
    struct loaded_line *violations;
    size_t n_violations, cap_violations;
    struct ci_compile compile; /* COMPILE */
    uint64_t seq;              /* its number in the order the inputs are found */
    enum loaded_page page;
    char *page_base64;         /* PAGE_SHARED */
    size_t page_base64_len;
    char page_msg[768];        /* PAGE_FAILED: why */
};

/* The file's bytes appended to out when it holds at most max: 1; 0 when it holds more; -1 on a
 * read error. */
int loaded_read_bounded(const char *path, size_t max, struct strbuf *out);
/* Fills lf (kind FAILED only when out of memory); lf->path is a copy of path. */
void loaded_file_read(struct loaded_file *lf, const char *path);
void loaded_file_free(struct loaded_file *lf);

#endif
