/*
 * compile.c - compile one submission in the jail (judge/compile/compile.h).
 *
 * The submission is bound read-only at /bot (the working directory), a fresh
 * scratch directory capped at the file-size limit at /data (a tmpfs in the
 * judge's private mount namespace as root), and the jail has its own /tmp,
 * no network, the profile's seccomp profile and limits. The compiler's stdout
 * and stderr go, in order, to one memory file, capped per stream. When it
 * succeeds, the scratch directory is copied into BOT_DIR with the manifest.
 */
#include "judge/compile/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/make_dirs.h"
#include "sandbox/fs_safe.h"

#define MAX_ENV       (3 + LP_MAX_LIST)
#define TAIL_SCAN     (64u << 10) /* the end of the messages, searched for a full disk */
#define CUT_NOTE_ROOM 80

static const char *const verdict_names[COMPILE_VERDICT_COUNT] = {
    "OK",           "COMPILE_ERROR",     "CPU_LIMIT",      "WALL_LIMIT", "MEMORY_LIMIT", "PROCESS_LIMIT",
    "OUTPUT_LIMIT", "FORBIDDEN_SYSCALL", "INTERNAL_ERROR",
};

/* The compile jail's environment; a profile's env replaces or adds entries.
 * LANG=C: plain ASCII messages, in the words the disk-full check looks for. */
static const char *const base_env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "HOME=/tmp", NULL};

/* What a compiler (through libc) prints when a write hit the file-size limit
 * or a full /tmp or /data: strsignal(SIGXFSZ), strerror(EFBIG), strerror(ENOSPC). */
static const char *const disk_full_words[] = {"File size limit exceeded", "File too large",
                                              "No space left on device"};

const char *compile_verdict_name(enum compile_verdict v)
{
    return (unsigned)v < COMPILE_VERDICT_COUNT ? verdict_names[v] : "?";
}

/* ---- the request ----------------------------------------------------------------- */

static int check_dir(const char *what, const char *path, struct compile_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0) return compile_fail(err, "%s %s: %s", what, path, strerror(errno));
    return S_ISDIR(st.st_mode) ? 0 : compile_fail(err, "%s %s: not a directory", what, path);
}

/* BOT_DIR: made if missing (its parents too), else it must be empty. Returns an fd on it. */
static int open_bot_dir(const char *path, struct compile_error *err)
{
    char why[512];
    if (make_dirs(path, 0755, why, sizeof why) < 0) return compile_fail(err, "BOT_DIR: %s", why);
    struct jail_error jerr;
    int fd = fs_safe_open_dir(path, &jerr);
    if (fd < 0) return compile_fail(err, "BOT_DIR: %s", jerr.msg);
    int probe = dup(fd);
    DIR *d = probe >= 0 ? fdopendir(probe) : NULL;
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    if (!d || entries) {
        close(fd);
        return compile_fail(err, "BOT_DIR %s: %s", path,
                            d ? "not empty (compile into a new directory)" : strerror(errno));
    }
    return fd;
}

/* The compiler and the mounts the profile names must be on this machine. */
static int check_installed(const struct language_profile *p, struct compile_error *err)
{
    const char *tool = p->compile.words[0];
    if (tool[0] == '/' && access(tool, X_OK) < 0)
        return compile_fail(err, "profile %s: %s is not installed here (%s; make deps installs it)", p->name,
                            tool, strerror(errno));
    for (size_t i = 0; i < p->n_mounts; i++)
        if (access(p->mounts[i], R_OK) < 0)
            return compile_fail(err, "profile %s: mount %s: %s (is the language installed? make deps)",
                                p->name, p->mounts[i], strerror(errno));
    return 0;
}

/* ---- the command ------------------------------------------------------------------ */

/* base + profile entries, a profile entry replacing a base one of the same NAME. */
static void merge_env(const char *const *base, char *const *extra, size_t n_extra, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; base[i]; i++) {
        size_t name_len = (size_t)(strchr(base[i], '=') - base[i]) + 1;
        bool replaced = false;
        for (size_t j = 0; j < n_extra; j++) replaced |= !strncmp(extra[j], base[i], name_len);
        if (!replaced) out[n++] = base[i];
    }
    for (size_t j = 0; j < n_extra; j++) out[n++] = extra[j];
    out[n] = NULL;
}

/* "MAIN=Random" from "Random.java". */
static void main_var(const char *entry, char *out, size_t size)
{
    const char *dot = strrchr(entry, '.');
    int len = dot && dot != entry ? (int)(dot - entry) : (int)strlen(entry);
    snprintf(out, size, "MAIN=%.*s", len, entry);
}

static char **compile_argv(const struct language_profile *p, const struct compile_sources *src,
                           struct compile_error *err)
{
    char entry_var[PATH_MAX + 8], main_var_buf[PATH_MAX + 8];
    snprintf(entry_var, sizeof entry_var, "ENTRY=%s", src->entry ? src->entry : "");
    main_var(src->entry ? src->entry : "", main_var_buf, sizeof main_var_buf);
    const char *vars[] = {"SRC=" JAIL_BOT_DIR, "OUT=" JAIL_RW_DIR, entry_var, main_var_buf, NULL};
    const struct lp_list lists[] = {{"SOURCES", (const char *const *)src->names, src->n}};
    struct lp_error lerr;
    char **argv = lp_expand((const char *const *)p->compile.words, vars, lists, 1, &lerr);
    if (!argv) compile_fail(err, "profile %s: %s", p->name, lerr.msg);
    return argv;
}

/* ---- messages ----------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80             ? 1
                 : (s[0] & 0xe0) == 0xc0 ? 2
                 : (s[0] & 0xf0) == 0xe0 ? 3
                 : (s[0] & 0xf8) == 0xf0 ? 4
                                         : 0;
    if (len == 0 || len > n || (len == 2 && s[0] < 0xc2) || (len == 4 && s[0] > 0xf4)) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    return len;
}

/* Copy raw bytes into out->messages as printable text: valid UTF-8, tabs and
 * newlines kept, anything else '?'; stops at a sequence that does not fit. */
static void take_text(struct compile_result *out, const unsigned char *raw, size_t n, size_t room)
{
    size_t o = out->messages_len;
    for (size_t i = 0; i < n && o < room;) {
        size_t len = utf8_sequence(raw + i, n - i);
        bool control = len == 1 && (raw[i] < 0x20 || raw[i] == 0x7f) && raw[i] != '\n' && raw[i] != '\t';
        if (len <= 1 || control) {
            out->messages[o++] = (len == 1 && !control) ? (char)raw[i] : '?';
            i++;
        } else if (o + len <= room) {
            memcpy(out->messages + o, raw + i, len);
            o += len;
            i += len;
        } else {
            break;
        }
    }
    out->messages_len = o;
    out->messages[o] = '\0';
}

/* Appends "judge: ..." on a line of its own, if it fits. */
static void add_judge_line(struct compile_result *out, const char *line)
{
    char text[300];
    int n = snprintf(text, sizeof text, "%sjudge: %s\n",
                     out->messages_len && out->messages[out->messages_len - 1] != '\n' ? "\n" : "", line);
    if (n > 0) take_text(out, (const unsigned char *)text, (size_t)n, COMPILE_MESSAGES_MAX);
}

static bool mentions_disk_full(const char *text, size_t len)
{
    for (size_t i = 0; i < sizeof disk_full_words / sizeof *disk_full_words; i++)
        if (memmem(text, len, disk_full_words[i], strlen(disk_full_words[i]))) return true;
    return false;
}

/* The first COMPILE_MESSAGES_MAX bytes, and whether a full disk is mentioned anywhere near the end. */
static int read_messages(int fd, struct compile_result *out, bool *disk_full, struct compile_error *err)
{
    struct stat st;
    if (fstat(fd, &st) < 0) return compile_fail(err, "compiler messages: %s", strerror(errno));
    char *buf = malloc(TAIL_SCAN);
    if (!buf) return compile_fail(err, "out of memory");
    size_t total = (size_t)st.st_size, head = total < COMPILE_MESSAGES_MAX ? total : COMPILE_MESSAGES_MAX;
    ssize_t got = pread(fd, buf, head, 0);
    if (got < 0) {
        free(buf);
        return compile_fail(err, "compiler messages: %s", strerror(errno));
    }
    take_text(out, (unsigned char *)buf, (size_t)got,
              total > head ? COMPILE_MESSAGES_MAX - CUT_NOTE_ROOM : COMPILE_MESSAGES_MAX);
    *disk_full = mentions_disk_full(buf, (size_t)got);
    if (total > head) {
        size_t tail = total - head < TAIL_SCAN ? total - head : TAIL_SCAN;
        got = pread(fd, buf, tail, (off_t)(total - tail));
        *disk_full |= got > 0 && mentions_disk_full(buf, (size_t)got);
        char line[100];
        snprintf(line, sizeof line, "%zu more bytes of messages not shown", total - out->messages_len);
        add_judge_line(out, line);
    }
    free(buf);
    return 0;
}

/* ---- the verdict ------------------------------------------------------------------------ */

static enum compile_verdict verdict_of(const struct jail_report *r, bool disk_full)
{
    switch (r->verdict) {
    case VERDICT_OK:
        return COMPILE_OK;
    case VERDICT_RUNTIME_ERROR:
        return r->signal == SIGXFSZ || disk_full ? COMPILE_OUTPUT_LIMIT : COMPILE_ERROR;
    case VERDICT_CPU_LIMIT:
        return COMPILE_CPU_LIMIT;
    case VERDICT_WALL_LIMIT:
        return COMPILE_WALL_LIMIT;
    case VERDICT_MEMORY_LIMIT:
        return COMPILE_MEMORY_LIMIT;
    case VERDICT_PROCESS_LIMIT:
        return COMPILE_PROCESS_LIMIT;
    case VERDICT_OUTPUT_LIMIT:
        return COMPILE_OUTPUT_LIMIT;
    case VERDICT_FORBIDDEN_SYSCALL:
        return COMPILE_FORBIDDEN_SYSCALL;
    default:
        return COMPILE_INTERNAL_ERROR;
    }
}

static void take_report(struct compile_result *out, const struct jail_report *r, bool disk_full,
                        const struct lp_compile_limits *lim)
{
    out->verdict = verdict_of(r, disk_full);
    out->exit_code = r->signal ? -1 : r->exit_code;
    out->cpu_ns = r->cpu_ns;
    out->wall_ns = r->wall_ns;
    out->memory_peak_bytes = r->memory_peak_bytes;
    out->has_syscall = r->has_syscall;
    out->syscall = r->syscall;
    if (out->verdict == COMPILE_OUTPUT_LIMIT && r->verdict == VERDICT_RUNTIME_ERROR)
        snprintf(out->note, sizeof out->note,
                 "a file reached the file-size limit (%" PRIu64 " MiB) or /tmp (%" PRIu64 " MiB) was full",
                 lim->file_size_bytes >> 20, lim->tmp_bytes >> 20);
    else if (out->verdict == COMPILE_ERROR && r->signal)
        snprintf(out->note, sizeof out->note, "the compiler was killed by signal %d", r->signal);
    else
        snprintf(out->note, sizeof out->note, "%s", r->note);
}

/* ---- the run ------------------------------------------------------------------------------ */

struct compile_job {
    const struct compile_request *req;
    const struct compile_sources *src;
    struct jail_identity *id;
    char scratch[PATH_MAX];
    struct compile_result *out;
};

static void fill_spec(const struct compile_job *job, char **argv, const char **env, const char *seccomp,
                      struct jail_spec *spec)
{
    const struct language_profile *p = job->req->profile;
    const struct lp_compile_limits *lim = &p->compile_limits;
    memset(spec, 0, sizeof *spec);
    spec->argv = (const char *const *)argv;
    spec->envp = env;
    spec->dir = job->req->src_dir;
    spec->rw_dir = job->scratch;
    spec->profile = seccomp;
    spec->extra_ro_binds = p->n_mounts ? (const char *const *)p->mounts : NULL;
    spec->identity = job->id;
    spec->limits = (struct jail_limits){.cpu_ns = lim->cpu_ns,
                                        .wall_ns = lim->wall_ns,
                                        .memory_bytes = lim->memory_bytes,
                                        .pids = lim->pids,
                                        .fsize_bytes = lim->file_size_bytes,
                                        .tmp_bytes = lim->tmp_bytes};
    spec->mode = job->req->mode;
}

static int run_compiler(struct compile_job *job, struct compile_error *err)
{
    const struct language_profile *p = job->req->profile;
    char seccomp[COMPILE_SECCOMP_NAME_MAX + 16];
    const char *env[MAX_ENV + 1];
    if (compile_seccomp_profile(p->name, "compile", &p->compile, seccomp, sizeof seccomp, err) < 0) return -1;
    char **argv = compile_argv(p, job->src, err);
    if (!argv) return -1;
    merge_env(base_env, p->compile.env, p->compile.n_env, env);
    struct jail_spec spec;
    fill_spec(job, argv, env, seccomp, &spec);
    int fd = memfd_create("compile-messages", MFD_CLOEXEC);
    uint64_t cap = p->compile_limits.output_bytes;
    struct jail_io io = {.in_fd = -1, .out_fd = fd, .err_fd = fd, .stdout_max = cap, .stderr_max = cap};
    struct jail_report report;
    struct jail_error jerr;
    bool disk_full = false;
    int rc = fd < 0 ? compile_fail(err, "memfd_create: %s", strerror(errno))
             : jail_run(&spec, &io, &report, &jerr) < 0 ? compile_fail(err, "compiling: %s", jerr.msg)
                                                        : read_messages(fd, job->out, &disk_full, err);
    if (rc == 0) take_report(job->out, &report, disk_full, &p->compile_limits);
    if (fd >= 0) close(fd);
    lp_words_free(argv);
    return rc;
}

/* ---- the result ------------------------------------------------------------------------------ */

/* The verdict when what the compiler left is over the file-size limit (why: which file, or the total). */
static void refuse_delivery(struct compile_job *job, const char *why)
{
    uint64_t cap = job->req->profile->compile_limits.file_size_bytes;
    job->out->verdict = COMPILE_OUTPUT_LIMIT;
    snprintf(job->out->note, sizeof job->out->note, "BOT_DIR over the file-size limit (%" PRIu64 " MiB)%s%.100s",
             cap >> 20, why ? ": " : "", why ? why : "");
    add_judge_line(job->out, job->out->note);
}

static int over_size(struct compile_job *job, struct compile_error *err)
{
    uint64_t used = 0, cap = job->req->profile->compile_limits.file_size_bytes;
    struct jail_error jerr;
    if (jail_scratch_usage(job->scratch, &used, &jerr) < 0) return compile_fail(err, "%s", jerr.msg);
    if (used <= cap) return 0;
    refuse_delivery(job, NULL);
    return 1;
}

/* Copy the scratch directory into BOT_DIR, then the manifest (which marks it complete).
 * Files count by the length they claim: sparse ones cannot pass the cap. */
static int deliver(struct compile_job *job, int bot_fd, struct compile_error *err)
{
    int rc = over_size(job, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
    size_t skipped = 0;
    struct jail_error jerr;
    rc = compile_tree_copy(job->scratch, bot_fd, job->req->profile->compile_limits.file_size_bytes, &skipped, err);
    if (rc == 0) rc = compile_manifest_write(bot_fd, job->req->profile->name, job->src->entry, err);
    if (rc != 0) {
        if (rc > 0) refuse_delivery(job, err->msg);
        fs_safe_clear_dir(bot_fd, &jerr);
        return rc < 0 ? -1 : 0;
    }
    if (skipped) {
        char line[100];
        snprintf(line, sizeof line, "%zu links or special files the compiler made were not kept", skipped);
        add_judge_line(job->out, line);
    }
    return 0;
}

static int make_scratch(struct compile_job *job, struct compile_error *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(job->scratch, sizeof job->scratch, "%.3000s/judge-compile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(job->scratch))
        return compile_fail(err, "scratch directory %s: %s", job->scratch, strerror(errno));
    bool degraded;
    struct jail_error jerr;
    if (jail_scratch_create(job->scratch, job->req->profile->compile_limits.file_size_bytes, job->id,
                            &degraded, &jerr) < 0) {
        rmdir(job->scratch);
        return compile_fail(err, "%s", jerr.msg);
    }
    return 0;
}

static int compile_in_scratch(struct compile_job *job, int bot_fd, struct compile_error *err)
{
    struct jail_error jerr;
    if (jail_identity_acquire(&job->id, &jerr) < 0) return compile_fail(err, "%s", jerr.msg);
    int rc = make_scratch(job, err);
    if (rc == 0) {
        rc = run_compiler(job, err);
        if (rc == 0 && job->out->verdict == COMPILE_OK) rc = deliver(job, bot_fd, err);
        if (jail_scratch_remove(job->scratch, &jerr) < 0 && rc == 0) rc = compile_fail(err, "%s", jerr.msg);
    }
    jail_identity_release(job->id);
    return rc;
}

/* The submission was refused before any compiler ran: the reason is the message. */
static void refuse(struct compile_result *out, const char *problem)
{
    out->verdict = COMPILE_ERROR;
    snprintf(out->note, sizeof out->note, "refused before compiling");
    take_text(out, (const unsigned char *)problem, strlen(problem), COMPILE_MESSAGES_MAX - 1);
    take_text(out, (const unsigned char *)"\n", 1, COMPILE_MESSAGES_MAX);
}

int compile_submission(const struct compile_request *req, struct compile_result *out,
                       struct compile_error *err)
{
    memset(out, 0, sizeof *out);
    out->verdict = COMPILE_INTERNAL_ERROR;
    out->exit_code = -1;
    if (check_dir("SRC_DIR", req->src_dir, err) < 0 || check_installed(req->profile, err) < 0)
        return (err->request = true), -1;
    int bot_fd = open_bot_dir(req->bot_dir, err);
    if (bot_fd < 0) return (err->request = true), -1;
    struct compile_sources src;
    char problem[400];
    int rc = compile_sources_list(req->profile, req->src_dir, &src, problem, sizeof problem, err);
    if (rc == 1) {
        refuse(out, problem);
        rc = 0;
    } else if (rc == 0) {
        struct compile_job job = {.req = req, .src = &src, .out = out};
        rc = compile_in_scratch(&job, bot_fd, err);
    }
    compile_sources_free(&src);
    close(bot_fd);
    return rc;
}
