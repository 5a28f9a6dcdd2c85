/* bot_channel.c - non-blocking prompt writes, README C3 line reading, stderr tail. */
#include "judge/match/bot_channel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bot_channel_init(struct bot_channel *ch, int in_fd, int out_fd, int err_fd, size_t max_line,
                     size_t stderr_limit)
{
    memset(ch, 0, sizeof *ch);
    ch->in_fd = in_fd;
    ch->out_fd = out_fd;
    ch->err_fd = err_fd;
    ch->max_line = max_line ? max_line : 1;
    ch->line = malloc(ch->max_line + 2);
    ch->tail_cap = stderr_limit;
    ch->tail = stderr_limit ? malloc(stderr_limit) : NULL;
    if (!ch->line || (stderr_limit && !ch->tail)) {
        bot_channel_free(ch);
        return -1;
    }
    return 0;
}

void bot_channel_free(struct bot_channel *ch)
{
    sb_free(&ch->unsent);
    free(ch->line);
    free(ch->tail);
    ch->line = NULL;
    ch->tail = NULL;
}

/* ---- stdin ---------------------------------------------------------------- */

/* Write from p as far as the pipe allows: bytes written, or -1 with errno. */
static ssize_t write_some(int fd, const char *p, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        return -1;
    }
    return (ssize_t)done;
}

static void drop_unsent(struct bot_channel *ch)
{
    sb_reset(&ch->unsent);
    ch->unsent_pos = 0;
}

int bot_channel_flush(struct bot_channel *ch)
{
    if (ch->stdin_gone || ch->in_fd < 0) {
        drop_unsent(ch);
        return 1;
    }
    size_t left = ch->unsent.len - ch->unsent_pos;
    if (left == 0)
        return 1;
    ssize_t n = write_some(ch->in_fd, ch->unsent.data + ch->unsent_pos, left);
    if (n < 0) {
        if (errno != EPIPE)
            return -1;
        ch->stdin_gone = true;
        drop_unsent(ch);
        return 1;
    }
    ch->unsent_pos += (size_t)n;
    if (ch->unsent_pos < ch->unsent.len)
        return 0;
    drop_unsent(ch);
    return 1;
}

int bot_channel_send(struct bot_channel *ch, const char *data, size_t len)
{
    if (ch->stdin_gone || ch->in_fd < 0)
        return 1;
    if (ch->unsent.len == ch->unsent_pos && len > 0) {
        /* Nothing queued: write straight from the caller's buffer, copy only the rest. */
        ssize_t n = write_some(ch->in_fd, data, len);
        if (n < 0) {
            if (errno != EPIPE)
                return -1;
            ch->stdin_gone = true;
            return 1;
        }
        data += n;
        len -= (size_t)n;
        if (len == 0)
            return 1;
    }
    if (sb_append(&ch->unsent, data, len) < 0) {
        errno = ENOMEM;
        return -1;
    }
    return bot_channel_flush(ch);
}

bool bot_channel_has_unsent(const struct bot_channel *ch)
{
    return ch->unsent.len > ch->unsent_pos;
}

void bot_channel_stdin_closed(struct bot_channel *ch)
{
    ch->in_fd = -1;
    drop_unsent(ch);
}

/* ---- stdout: README C3 lines ------------------------------------------------ */

int bot_channel_refill(struct bot_channel *ch)
{
    if (ch->out_fd < 0)
        return -1;
    if (ch->stdout_quiet)
        return 0;
    for (;;) {
        ssize_t n = read(ch->out_fd, ch->raw, sizeof ch->raw);
        if (n > 0) {
            ch->raw_pos = 0;
            ch->raw_len = (size_t)n;
            ch->stdout_bytes += (uint64_t)n;
            return 1;
        }
        if (n == 0) {
            ch->out_fd = -1;
            return -1;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN)
            return -2;
        ch->stdout_quiet = true;
        return 0;
    }
}

void bot_channel_stdout_woken(struct bot_channel *ch)
{
    ch->stdout_quiet = false;
}

void bot_channel_stdout_await(struct bot_channel *ch)
{
    ch->stdout_quiet = true;
}

static size_t text_len(const struct bot_channel *ch)
{
    return ch->line_len - (ch->pending_cr ? 1 : 0);
}

static void reset_line(struct bot_channel *ch)
{
    ch->line_len = 0;
    ch->pending_cr = false;
}

static void emit(struct bot_channel *ch, struct bot_line *out, enum bot_line_status status)
{
    size_t n = text_len(ch);
    ch->line[n] = '\0';
    out->status = status;
    out->text = ch->line;
    out->len = n;
    reset_line(ch);
}

/* The line breaks C3 at byte c: keep c in the evidence, skip to the next "\n". */
static void emit_invalid(struct bot_channel *ch, struct bot_line *out, unsigned char c,
                         const char *fmt, unsigned long figure)
{
    size_t n = text_len(ch);
    if (n <= ch->max_line) {
        ch->line[n] = (char)c;
        ch->line_len = n + 1;
        ch->pending_cr = false;
    }
    snprintf(out->reason, sizeof out->reason, fmt, figure);
    ch->skipping = true;
    emit(ch, out, BOT_LINE_INVALID);
}

/* Consume one byte; true when it completed (or broke) the line. */
static bool take_byte(struct bot_channel *ch, unsigned char c, struct bot_line *out)
{
    if (ch->skipping) {
        if (c == '\n')
            ch->skipping = false;
        return false;
    }
    if (c == '\n') {
        emit(ch, out, BOT_LINE_OK);
        return true;
    }
    if (ch->pending_cr) {
        emit_invalid(ch, out, '\r', "control byte 0x%02lx", '\r');
        return true;   /* c is part of the rest of the line, which is skipped */
    }
    if (ch->line_len >= ch->max_line) {
        emit_invalid(ch, out, c, "line longer than %lu bytes", (unsigned long)ch->max_line);
        return true;
    }
    if (c == '\r') {
        ch->pending_cr = true;
        ch->line_len++;
        return false;
    }
    if (c < 0x20 || c == 0x7f) {
        emit_invalid(ch, out, c, "control byte 0x%02lx", c);
        return true;
    }
    if (c >= 0x80) {
        emit_invalid(ch, out, c, "non-ASCII byte 0x%02lx", c);
        return true;
    }
    ch->line[ch->line_len++] = (char)c;
    return false;
}

void bot_channel_read_line(struct bot_channel *ch, struct bot_line *out)
{
    memset(out, 0, sizeof *out);
    out->text = "";
    for (;;) {
        while (ch->raw_pos < ch->raw_len) {
            unsigned char c = (unsigned char)ch->raw[ch->raw_pos++];
            if (take_byte(ch, c, out))
                return;
        }
        int r = bot_channel_refill(ch);
        if (r == 1)
            continue;
        if (r == 0) {
            out->status = BOT_LINE_NONE;
            return;
        }
        if (r == -2) {
            snprintf(out->reason, sizeof out->reason, "read: %s", strerror(errno));
            out->status = BOT_LINE_ERROR;
            return;
        }
        if (ch->skipping)
            reset_line(ch);
        ch->skipping = false;
        emit(ch, out, BOT_LINE_EOF);
        return;
    }
}

size_t bot_channel_partial_line(const struct bot_channel *ch, const char **text)
{
    *text = ch->line;
    return ch->skipping ? 0 : text_len(ch);
}

int bot_channel_discard_stdout(struct bot_channel *ch)
{
    ch->raw_pos = ch->raw_len = 0;
    int r;
    while ((r = bot_channel_refill(ch)) == 1)
        ch->raw_pos = ch->raw_len = 0;
    return r == 0 ? 0 : 1;
}

/* ---- stderr tail -------------------------------------------------------------- */

static void tail_push(struct bot_channel *ch, const char *p, size_t n)
{
    ch->stderr_bytes += n;
    if (ch->tail_cap == 0)
        return;
    if (n >= ch->tail_cap) {
        memcpy(ch->tail, p + n - ch->tail_cap, ch->tail_cap);
        ch->tail_head = 0;
        ch->tail_len = ch->tail_cap;
        return;
    }
    size_t first = ch->tail_cap - ch->tail_head;
    if (first > n)
        first = n;
    memcpy(ch->tail + ch->tail_head, p, first);
    memcpy(ch->tail, p + first, n - first);
    ch->tail_head = (ch->tail_head + n) % ch->tail_cap;
    ch->tail_len = ch->tail_len + n > ch->tail_cap ? ch->tail_cap : ch->tail_len + n;
}

int bot_channel_drain_stderr(struct bot_channel *ch)
{
    char buf[BOT_READ_CHUNK];
    while (ch->err_fd >= 0) {
        ssize_t n = read(ch->err_fd, buf, sizeof buf);
        if (n > 0) {
            tail_push(ch, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        ch->err_fd = -1;   /* EOF, or an error: either way nothing more will come */
    }
    return 1;
}

/* Byte i of the retained tail, 0 being the oldest. */
static char tail_at(const struct bot_channel *ch, size_t i)
{
    size_t oldest = (ch->tail_head + ch->tail_cap - ch->tail_len) % ch->tail_cap;
    return ch->tail[(oldest + i) % ch->tail_cap];
}

int bot_channel_stderr_tail(const struct bot_channel *ch, size_t max, struct strbuf *out)
{
    size_t n = ch->tail_len < max ? ch->tail_len : max;
    size_t start = ch->tail_len - n;
    bool at_boundary = start == 0 ? ch->stderr_bytes == ch->tail_len : tail_at(ch, start - 1) == '\n';
    if (!at_boundary) {
        for (size_t i = start; i + 1 < ch->tail_len; i++)
            if (tail_at(ch, i) == '\n') {
                start = i + 1;
                break;
            }
    }
    for (size_t i = start; i < ch->tail_len; i++)
        if (sb_putc(out, tail_at(ch, i)) < 0)
            return -1;
    return 0;
}
