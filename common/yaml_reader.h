/*
 * yaml_reader.h - typed access to a YAML file (libyaml's document API), with
 * every error one line "FILE:LINE:COL: message" at the mark of the node at fault.
 *
 * Plain scalars are typed the YAML 1.2 core way: an empty plain scalar, `~` or
 * `null` is null; quoted scalars are always strings. Integers are decimal.
 * Every reader returns 0, or -1 with err filled.
 */
#ifndef JUDGE_YAML_READER_H
#define JUDGE_YAML_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#define YR_MAX_FILE_BYTES (1u << 20)
#define YR_MAX_DEPTH 32  /* nested mappings and sequences */

struct yr_error { char msg[512]; };
struct yr_mark { int line, col; };  /* 1-based */

struct yr_file {
    char *path;            /* as given, for messages */
    yaml_document_t doc;
    bool loaded;
};

/* Reads and parses the whole file: exactly one YAML document. */
int yr_load(const char *path, struct yr_file *out, struct yr_error *err);
void yr_free(struct yr_file *f);

/* The root node, or NULL for an empty document. */
const yaml_node_t *yr_root(const struct yr_file *f);
struct yr_mark yr_document_mark(const struct yr_file *f);
struct yr_mark yr_node_mark(const yaml_node_t *node);

/* A printable rendering of user text for messages: '?' for any unprintable
 * byte, cut with "..." to fit cap (YR_QUOTE_SIZE: 40 bytes of text). */
#define YR_QUOTE_SIZE 44
void yr_quote(const char *s, size_t len, char *out, size_t cap);

/* Formats "FILE:LINE:COL: message" into err and returns -1. */
int yr_fail(const struct yr_file *f, struct yr_mark at, struct yr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Scalars. The string points into the document (valid until yr_free) and holds no NUL. */
int yr_string(const struct yr_file *f, const yaml_node_t *node, const char **out, struct yr_error *err);
int yr_int64(const struct yr_file *f, const yaml_node_t *node, int64_t *out, struct yr_error *err);
int yr_uint64(const struct yr_file *f, const yaml_node_t *node, uint64_t *out, struct yr_error *err);
int yr_bool(const struct yr_file *f, const yaml_node_t *node, bool *out, struct yr_error *err); /* true/false, 1/0 */
bool yr_is_scalar(const yaml_node_t *node);

/* Mappings: entry i with a string key; a key equal to an earlier one is an error. */
int yr_expect_mapping(const struct yr_file *f, const yaml_node_t *node, const char *what,
                      struct yr_error *err);
size_t yr_mapping_size(const yaml_node_t *map);
struct yr_entry { const char *key; struct yr_mark key_mark; const yaml_node_t *value; };
int yr_mapping_entry(const struct yr_file *f, const yaml_node_t *map, size_t i, struct yr_entry *out,
                     struct yr_error *err);

/* Sequences. */
int yr_expect_sequence(const struct yr_file *f, const yaml_node_t *node, const char *what,
                       struct yr_error *err);
size_t yr_sequence_size(const yaml_node_t *seq);
const yaml_node_t *yr_sequence_item(const struct yr_file *f, const yaml_node_t *seq, size_t i);

#endif
