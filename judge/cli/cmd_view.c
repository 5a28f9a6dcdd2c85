/* cmd_view.c - `judge view REPLAY [--out PAGE.html]`: one self-contained HTML page that shows
 * the match (the viewer of viewer/, with the replay inside), opened from a double-click. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "judge/cli/commands.h"
#include "viewer/page.h"

#define REPLAY_MAX_BYTES (1u << 30)

static const char usage_text[] =
    "usage: judge view REPLAY.jsonl.gz [--out PAGE.html]\n"
    "\n"
    "Writes one HTML page holding the viewer and the replay: it opens in a browser from the\n"
    "file, with no network and no server. Without --out the page goes beside the replay\n"
    "(m.jsonl.gz -> m.html) and its path is printed. A page judge view wrote before is\n"
    "replaced (and a note says so); any other file there is left alone (exit 2).\n";

static int read_replay(const char *path, struct strbuf *bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "judge view: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (bytes->len + n > REPLAY_MAX_BYTES || sb_append(bytes, chunk, n) < 0) {
            fprintf(stderr, "judge view: %s: larger than %u MiB\n", path, REPLAY_MAX_BYTES >> 20);
            fclose(f);
            return -1;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "judge view: %s: read error\n", path);
        return -1;
    }
    return 0;
}

enum existing { EXISTING_NONE, EXISTING_PAGE, EXISTING_OTHER };

/* What is at the page's path: nothing (or a device, a FIFO: written in place), a page judge view
 * wrote (replaced, with a note), or anything else (never replaced: it may be the replay itself). */
static enum existing existing_target(const char *out, const char *replay)
{
    struct stat st, rst;
    if (stat(out, &st) < 0 || !S_ISREG(st.st_mode))
        return EXISTING_NONE;
    if (stat(replay, &rst) == 0 && rst.st_dev == st.st_dev && rst.st_ino == st.st_ino)
        return EXISTING_OTHER;
    char head[512] = {0};
    int fd = open(out, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    ssize_t n = fd >= 0 ? read(fd, head, sizeof head - 1) : -1;
    if (fd >= 0)
        close(fd);
    bool page = n > 0 && !strncmp(head, "<!DOCTYPE html>", 15) &&
                strstr(head, "<title>judge replay viewer</title>");
    return page ? EXISTING_PAGE : EXISTING_OTHER;
}

/* m.jsonl.gz -> m.html beside it. */
static int default_out(const char *replay, char *out, size_t size)
{
    static const char *const suffixes[] = {".jsonl.gz", ".gz", ".jsonl"};
    size_t len = strlen(replay);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t s = strlen(suffixes[i]);
        if (len > s && !strcmp(replay + len - s, suffixes[i])) {
            len -= s;
            break;
        }
    }
    int n = snprintf(out, size, "%.*s.html", (int)len, replay);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int cmd_view(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *out = NULL;
    int opt;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if (opt == 'o')
            out = optarg;
        else if (opt == 'h') {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else {
            fprintf(stderr, "judge view: %s (see judge view --help)\n",
                    opt == ':' ? "--out needs a file name" : "unknown option");
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "judge view: expected one replay file (see judge view --help)\n");
        return EXIT_USAGE;
    }
    const char *replay = argv[optind];
    char path[4096];
    if (!out) {
        if (default_out(replay, path, sizeof path) < 0) {
            fprintf(stderr, "judge view: %s: name too long\n", replay);
            return EXIT_USAGE;
        }
        out = path;
    }
    enum existing existing = existing_target(out, replay);
    if (existing == EXISTING_OTHER) {
        fprintf(stderr, "judge view: %s exists and is not a page judge view wrote: not replaced "
                        "(remove it, or give another --out)\n", out);
        return EXIT_USAGE;
    }
    struct strbuf bytes = STRBUF_INIT, page = STRBUF_INIT;
    int rc = EXIT_OK;
    if (read_replay(replay, &bytes) < 0) {
        rc = EXIT_USAGE;
    } else {
        const char *name = strrchr(replay, '/') ? strrchr(replay, '/') + 1 : replay;
        char err[512];
        if (viewer_page(&page, bytes.data, bytes.len, name, NULL) < 0) {
            fprintf(stderr, "judge view: out of memory\n");
            rc = EXIT_INTERNAL;
        } else if (atomic_file_write_whole(out, page.data, page.len, err, sizeof err) < 0) {
            fprintf(stderr, "judge view: %s\n", err);
            rc = EXIT_FAILURE_RESULT;
        } else {
            if (existing == EXISTING_PAGE)
                fprintf(stderr, "judge view: note: replaced the existing page %s\n", out);
            printf("%s\n", out);
        }
    }
    sb_free(&bytes);
    sb_free(&page);
    return rc;
}
