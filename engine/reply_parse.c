/* reply_parse.c - the README C3/C4 reading of one line. */
#include "engine/reply_parse.h"

#include <stdio.h>
#include <string.h>

static void set_error(struct game_error *err, int col, const char *what, unsigned char byte)
{
    if (!err)
        return;
    err->line = 0;
    err->col = col;
    snprintf(err->msg, sizeof err->msg, "%s 0x%02x is not allowed", what, byte);
}

/* The length without the one '\r' that may end the line, or -1 after a bad byte. */
static long checked_length(const char *line, size_t len, struct game_error *err)
{
    if (len > 0 && line[len - 1] == '\r')
        len--;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c >= 0x80) {
            set_error(err, (int)i + 1, "non-ASCII byte", c);
            return -1;
        }
        if (c < 0x20 || c == 0x7f) {
            set_error(err, (int)i + 1, c == '\t' ? "tab" : "control byte", c);
            return -1;
        }
    }
    return (long)len;
}

/* The next token at or after *pos in line[0..len), or false at the end of the line. */
static bool next_token(const char *line, size_t len, size_t *pos, struct reply_token *t)
{
    size_t i = *pos;
    while (i < len && line[i] == ' ')
        i++;
    if (i == len)
        return false;
    size_t start = i;
    while (i < len && line[i] != ' ')
        i++;
    *t = (struct reply_token){line + start, i - start, (int)start + 1};
    *pos = i;
    return true;
}

int reply_tokens(const char *line, size_t len, struct reply_token *tokens, int max, int *count,
                 struct game_error *err)
{
    *count = 0;
    long n = checked_length(line, len, err);
    if (n < 0)
        return -1;
    size_t pos = 0;
    struct reply_token t;
    while (next_token(line, (size_t)n, &pos, &t)) {
        if (*count < max)
            tokens[*count] = t;
        (*count)++;
    }
    return 0;
}

bool reply_number(const struct reply_token *t, int64_t *value)
{
    const char *p = t->text;
    size_t len = t->len;
    bool negative = len > 0 && p[0] == '-';
    if (negative) {
        p++;
        len--;
    }
    if (len == 0 || len > REPLY_NUMBER_MAX_DIGITS)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        v = v * 10 + (p[i] - '0');
    }
    *value = negative ? -v : v;
    return true;
}

int reply_numbers(const char *line, size_t len, int64_t *values, int max, int *count,
                  struct game_error *err)
{
    *count = 0;
    long n = checked_length(line, len, err);
    if (n < 0)
        return -1;
    size_t pos = 0;
    struct reply_token t;
    while (next_token(line, (size_t)n, &pos, &t)) {
        int64_t v;
        if (!reply_number(&t, &v)) {
            if (err) {
                err->line = 0;
                err->col = t.col;
                snprintf(err->msg, sizeof err->msg, "'%.*s' is not a number",
                         t.len > 40 ? 40 : (int)t.len, t.text);
            }
            return -1;
        }
        if (*count < max)
            values[*count] = v;
        (*count)++;
    }
    return 0;
}
