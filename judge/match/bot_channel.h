/*
 * bot_channel.h - one bot's three pipes, seen from the judge.
 *
 * Writes are non-blocking and never lose bytes: what the pipe does not take
 * stays queued until the next bot_channel_flush(). Replies are read one line
 * at a time under README C3 (max_line_bytes, one "\r" before "\n" removed,
 * control and non-ASCII bytes refused); bytes after a line stay buffered for
 * the next reply, since a bot's output is one stream. stderr is drained into
 * a bounded tail. The channel never closes the fds: the jail owns them.
 *
 * Writing to a pipe whose reader is gone raises SIGPIPE: callers block or
 * ignore it (match_play blocks it for the duration of a match).
 */
#ifndef JUDGE_BOT_CHANNEL_H
#define JUDGE_BOT_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/strbuf.h"

#define BOT_READ_CHUNK 4096

struct bot_channel {
    int in_fd, out_fd, err_fd;    /* -1 once closed or at EOF */

    struct strbuf unsent;         /* queued for stdin; bytes before unsent_pos are written */
    size_t unsent_pos;
    bool stdin_gone;              /* the bot closed its stdin: further messages are dropped */

    size_t max_line;              /* README C3 max_line_bytes */
    char *line;                   /* max_line + 2 bytes: the line being assembled */
    size_t line_len;              /* bytes counted so far, a pending "\r" included */
    bool pending_cr;
    bool skipping;                /* after an invalid line: discard up to its "\n" */
    char raw[BOT_READ_CHUNK];     /* read from stdout, not yet consumed */
    size_t raw_pos, raw_len;
    bool stdout_quiet;            /* a read found stdout empty: not read again until woken */
    uint64_t stdout_bytes;

    char *tail;                   /* ring of the last tail_cap bytes of stderr */
    size_t tail_cap, tail_len, tail_head;
    uint64_t stderr_bytes;
};

enum bot_line_status {
    BOT_LINE_NONE,      /* no complete line yet (the pipe is empty for now) */
    BOT_LINE_OK,        /* text holds the line, without "\r\n" */
    BOT_LINE_INVALID,   /* README C3 broken: reason says how, text holds what was read */
    BOT_LINE_EOF,       /* stdout closed before a complete line; text holds any partial line */
    BOT_LINE_ERROR,     /* read() failed: reason holds strerror */
};

struct bot_line {
    enum bot_line_status status;
    const char *text;   /* NUL-terminated, valid until the next read call */
    size_t len;
    char reason[96];
};

int bot_channel_init(struct bot_channel *ch, int in_fd, int out_fd, int err_fd, size_t max_line,
                     size_t stderr_limit);
void bot_channel_free(struct bot_channel *ch);

/* Queue bytes for the bot's stdin and write what the pipe takes now.
 * Returns 1 when nothing is left to send, 0 when bytes remain queued, -1 on
 * a write error other than the bot being gone (EPIPE is not an error: the
 * message is dropped and stdin_gone set). */
int bot_channel_send(struct bot_channel *ch, const char *data, size_t len);
int bot_channel_flush(struct bot_channel *ch);
bool bot_channel_has_unsent(const struct bot_channel *ch);
/* The jail closed the bot's stdin: forget the fd and anything queued. */
void bot_channel_stdin_closed(struct bot_channel *ch);

/* Take the next reply line, reading the pipe only when the buffer is empty. */
void bot_channel_read_line(struct bot_channel *ch, struct bot_line *out);
/* The bytes of a reply line that came without their "\n" so far (a pending "\r" left out; none
 * while an invalid line is skipped), into *text; valid until the next read call. */
size_t bot_channel_partial_line(const struct bot_channel *ch, const char **text);
/* Refills the read buffer from stdout: 1 when bytes were read, 0 when the pipe is empty
 * for now (or was at the last read, and nothing woke the channel since), -1 at end of file,
 * -2 on error. */
int bot_channel_refill(struct bot_channel *ch);
/* Something may have reached stdout (the wait saw the bot's fd readable, or it ended): the
 * next read asks the pipe again. The wait's level-triggered poll reports bytes still in the
 * pipe, so a read that would find it empty, as right after a prompt, is never made. */
void bot_channel_stdout_woken(struct bot_channel *ch);
/* Read stdout only once woken: right after a prompt, when what it answers cannot be there
 * yet and what the bot wrote before is reported by the wait. */
void bot_channel_stdout_await(struct bot_channel *ch);
/* Read and throw away whatever stdout holds now (a bot at its end). 1 at EOF. */
int bot_channel_discard_stdout(struct bot_channel *ch);

/* Move whatever stderr holds now into the tail. Returns 1 at EOF, 0 otherwise. */
int bot_channel_drain_stderr(struct bot_channel *ch);
/* Append the last bytes of stderr, at most max, starting at a line boundary
 * when one falls inside that window. */
int bot_channel_stderr_tail(const struct bot_channel *ch, size_t max, struct strbuf *out);

#endif
