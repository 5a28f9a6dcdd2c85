/* cmd_exec.c - `judge exec [options] -- CMD ARGS...`: run one command in the jail
 * and report on it (like `isolate --run`). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/cli/cli_args.h"
#include "judge/cli/cli_isolation.h"
#include "judge/cli/cmd_exec_relay.h"
#include "judge/cli/commands.h"
#include "common/atomic_file.h"
#include "judge/match/player_command.h"
#include "judge/match/run_report.h"

#define DEFAULT_PATH "PATH=/usr/local/bin:/usr/bin:/bin"
#define MAX_ENV 128 /* variables, PATH included */
#define DEFAULT_OUTPUT_LIMIT (64ull << 20)
#define DEFAULT_STDERR_LIMIT (1ull << 20)
/* Below 2 processes the jail's init cannot fork the command; PID_MAX_LIMIT of the kernel above. */
#define PIDS_MIN   2ull
#define PIDS_MAX   4194304ull
/* Below about 256 KiB the jail's set-up process is killed before execve; 1M leaves room for any libc. */
#define MEMORY_MIN (1ull << 20)
#define MEMORY_MAX (1ull << 46)

struct exec_options {
    struct jail_spec spec;
    const char *env[MAX_ENV + 1];
    size_t env_count;
    const char *stdin_path, *stdout_path, *stderr_path, *report_path;
    uint64_t output_limit, stderr_limit;
};

static const char usage_text[] =
    "usage: judge exec [OPTIONS] -- CMD [ARGS...]\n"
    "Run CMD in the jail and report how it ended. Exit status: 0 when CMD ran\n"
    "(whatever its verdict), 2 for a usage error or a CMD that cannot be run (no such\n"
    "file in the jail, not executable: no report is written then), 3 for an internal\n"
    "error or when this machine cannot give strict isolation (one line names the layers\n"
    "not fully on; `judge doctor` says how to get them, or use --isolation best-effort),\n"
    "4 when an output file cannot be written. What CMD writes to the judge's own\n"
    "stdout and stderr is escaped, as all untrusted text the judge prints: control bytes\n"
    "as \\xHH, invalid UTF-8 replaced, no line a CI runner takes for a command (:: or ##[),\n"
    "whole lines only (cut at 4 KiB; the last one ended by a newline). --stdout/--stderr\n"
    "FILE keep the bytes.\n"
    "An output FILE is written to a temporary name and renamed over FILE at the end (a\n"
    "device or FIFO is written in place); replacing a file says so on stderr.\n"
    "\n"
    "  --cpu SECONDS          CPU time of all its processes and threads (decimals ok;\n"
    "                         default: no CPU limit)\n"
    "  --wall SECONDS         wall-clock time (default: no wall limit, so a command that\n"
    "                         sleeps or waits for input runs until it ends: give one)\n"
    "  --memory BYTES         memory of all its processes (suffix k, M or G: 1024-based;\n"
    "                         1M to 64T; default: no memory limit)\n"
    "  --pids N               processes and threads (2 to 4194304; default 64)\n"
    "  --fsize BYTES          largest file it may write (default 64M)\n"
    "  --dir DIR              bound read-only at /bot, its working directory\n"
    "  --rw-dir DIR           bound read-write at /data\n"
    "  --profile NAME         system-call profile (default \"default\")\n"
    "  --isolation MODE       strict (default: refuse if any layer is missing) or best-effort\n"
    "  --env NAME=VALUE       add to its environment (otherwise only PATH=/usr/local/bin:/usr/bin:/bin)\n"
    "  --stdin FILE           its standard input (default: the judge's)\n"
    "  --stdout FILE          its standard output, byte for byte (default, or -: the judge's,\n"
    "                         escaped); never follows a symlink\n"
    "  --stderr FILE          its standard error, byte for byte (default, or -: the judge's,\n"
    "                         escaped); never follows a symlink\n"
    "  --output-limit BYTES   stdout cap, OUTPUT_LIMIT past it (default 64M)\n"
    "  --stderr-limit BYTES   stderr cap, OUTPUT_LIMIT past it (default 1M)\n"
    "  --report FILE          write the JSON report there ('-' = stdout)\n"
    "  --help                 show this\n";

enum option_id {
    OPT_CPU = 256, OPT_WALL, OPT_MEMORY, OPT_PIDS, OPT_FSIZE, OPT_DIR, OPT_RW_DIR, OPT_PROFILE,
    OPT_ISOLATION, OPT_ENV, OPT_STDIN, OPT_STDOUT, OPT_STDERR, OPT_OUTPUT_LIMIT, OPT_STDERR_LIMIT,
    OPT_REPORT, OPT_HELP
};

static const struct option long_options[] = {
    {"cpu", required_argument, NULL, OPT_CPU},
    {"wall", required_argument, NULL, OPT_WALL},
    {"memory", required_argument, NULL, OPT_MEMORY},
    {"pids", required_argument, NULL, OPT_PIDS},
    {"fsize", required_argument, NULL, OPT_FSIZE},
    {"dir", required_argument, NULL, OPT_DIR},
    {"rw-dir", required_argument, NULL, OPT_RW_DIR},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"isolation", required_argument, NULL, OPT_ISOLATION},
    {"env", required_argument, NULL, OPT_ENV},
    {"stdin", required_argument, NULL, OPT_STDIN},
    {"stdout", required_argument, NULL, OPT_STDOUT},
    {"stderr", required_argument, NULL, OPT_STDERR},
    {"output-limit", required_argument, NULL, OPT_OUTPUT_LIMIT},
    {"stderr-limit", required_argument, NULL, OPT_STDERR_LIMIT},
    {"report", required_argument, NULL, OPT_REPORT},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

#define usage_error(...) cli_usage_error("exec", " (see judge exec --help)", __VA_ARGS__)

static const char *option_name(int id)
{
    for (const struct option *opt = long_options; opt->name; opt++)
        if (opt->val == id)
            return opt->name;
    return "?";
}

/* ---- values --------------------------------------------------------------- */

static int parse_digits(const char **p, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *p = s;
    *out = v;
    return 0;
}

/* "2", "1.5", "0.003": seconds to nanoseconds; at most 9 decimals. */
static int parse_seconds(const char *text, uint64_t *ns)
{
    uint64_t whole, frac = 0;
    if (parse_digits(&text, &whole) < 0 || whole > UINT64_MAX / 1000000000ull - 1)
        return -1;
    if (*text == '.') {
        text++;
        uint64_t scale = 100000000ull;
        if (*text < '0' || *text > '9')
            return -1;
        for (; *text >= '0' && *text <= '9' && scale > 0; text++, scale /= 10)
            frac += (uint64_t)(*text - '0') * scale;
    }
    if (*text)
        return -1;
    *ns = whole * 1000000000ull + frac;
    return 0;
}

/* "4096", "64k", "100M", "2G" (1024-based). */
static int parse_bytes(const char *text, uint64_t *bytes)
{
    uint64_t v;
    if (parse_digits(&text, &v) < 0)
        return -1;
    unsigned shift = 0;
    switch (*text) {
    case '\0': break;
    case 'k': case 'K': shift = 10; text++; break;
    case 'm': case 'M': shift = 20; text++; break;
    case 'g': case 'G': shift = 30; text++; break;
    default: return -1;
    }
    if (*text || v > (UINT64_MAX >> shift))
        return -1;
    *bytes = v << shift;
    return 0;
}

static int parse_count(const char *text, uint64_t *n)
{
    return parse_digits(&text, n) < 0 || *text ? -1 : 0;
}

/* NAME=VALUE with a non-empty NAME; a later NAME replaces an earlier one (PATH included). */
static int add_env(struct exec_options *o, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return usage_error("--env wants NAME=VALUE, got '%s'", assignment);
    size_t name_len = (size_t)(eq - assignment) + 1;
    for (size_t i = 0; i < o->env_count; i++)
        if (!strncmp(o->env[i], assignment, name_len)) {
            o->env[i] = assignment;
            return 0;
        }
    if (o->env_count == MAX_ENV)
        return usage_error("too many --env options (the environment holds at most %d variables)", MAX_ENV);
    o->env[o->env_count++] = assignment;
    return 0;
}

/* ---- options -------------------------------------------------------------- */

static int set_isolation(struct exec_options *o, const char *mode)
{
    if (!strcmp(mode, "strict"))
        o->spec.mode = ISOLATION_STRICT;
    else if (!strcmp(mode, "best-effort"))
        o->spec.mode = ISOLATION_BEST_EFFORT;
    else
        return usage_error("--isolation is strict or best-effort, not '%s'", mode);
    return 0;
}

/* Values the jail cannot start with are usage errors, not internal ones. */
static int check_range(int id, const char *arg, const struct jail_limits *lim)
{
    if (id == OPT_PIDS && (lim->pids < PIDS_MIN || lim->pids > PIDS_MAX))
        return usage_error("--pids %s: out of range (%llu to %llu)", arg, PIDS_MIN, PIDS_MAX);
    if (id == OPT_MEMORY && (lim->memory_bytes < MEMORY_MIN || lim->memory_bytes > MEMORY_MAX))
        return usage_error("--memory %s: out of range (1M to 64T)", arg);
    return 0;
}

static int set_value(int id, const char *arg, struct exec_options *o)
{
    struct jail_limits *lim = &o->spec.limits;
    int bad = 0;
    switch (id) {
    case OPT_CPU: bad = parse_seconds(arg, &lim->cpu_ns); break;
    case OPT_WALL: bad = parse_seconds(arg, &lim->wall_ns); break;
    case OPT_MEMORY: bad = parse_bytes(arg, &lim->memory_bytes); break;
    case OPT_FSIZE: bad = parse_bytes(arg, &lim->fsize_bytes); break;
    case OPT_PIDS: bad = parse_count(arg, &lim->pids); break;
    case OPT_OUTPUT_LIMIT: bad = parse_bytes(arg, &o->output_limit); break;
    case OPT_STDERR_LIMIT: bad = parse_bytes(arg, &o->stderr_limit); break;
    case OPT_DIR: o->spec.dir = arg; break;
    case OPT_RW_DIR: o->spec.rw_dir = arg; break;
    case OPT_PROFILE:
        if (!jail_profile_known(arg)) return usage_error("--profile: no run profile named '%s'", arg);
        o->spec.profile = arg;
        break;
    case OPT_STDIN: o->stdin_path = arg; break;
    case OPT_STDOUT: o->stdout_path = arg; break;
    case OPT_STDERR: o->stderr_path = arg; break;
    case OPT_REPORT: o->report_path = arg; break;
    case OPT_ISOLATION: return set_isolation(o, arg);
    case OPT_ENV: return add_env(o, arg);
    }
    if (bad)
        return usage_error("--%s: bad value '%s' (seconds: 1.5; bytes: 4096, 64k, 100M, 2G; counts: 16)",
                           option_name(id), arg);
    return check_range(id, arg, lim);
}

static int check_dir(const char *option, const char *path)
{
    struct stat st;
    if (!path)
        return 0;
    if (stat(path, &st) < 0)
        return usage_error("%s %s: %s", option, path, strerror(errno)), -1;
    if (!S_ISDIR(st.st_mode))
        return usage_error("%s %s is not a directory", option, path), -1;
    char why[1024];
    if (!strcmp(option, "--dir") && player_dir_check(path, why, sizeof why) < 0)
        return usage_error("%s: %s", option, why), -1;
    return 0;
}

/* Returns -1 when parsed, otherwise the exit status to return now (help or usage error). */
static int parse_options(int argc, char **argv, struct exec_options *o)
{
    o->env[o->env_count++] = DEFAULT_PATH;
    o->output_limit = DEFAULT_OUTPUT_LIMIT;
    o->stderr_limit = DEFAULT_STDERR_LIMIT;
    o->spec.mode = ISOLATION_STRICT;
    opterr = 0;
    optind = 1;
    int id;
    while ((id = getopt_long(argc, argv, "+:", long_options, NULL)) != -1) {
        if (id == OPT_HELP) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        }
        if (id == ':')
            return usage_error("option --%s needs a value", option_name(optopt));
        if (id == '?')
            return usage_error("unknown option '%s'", argv[optind - 1]);
        int rc = set_value(id, optarg, o);
        if (rc)
            return rc;
    }
    if (optind >= argc)
        return usage_error("no command given: judge exec [OPTIONS] -- CMD [ARGS...]");
    if (check_dir("--dir", o->spec.dir) < 0 || check_dir("--rw-dir", o->spec.rw_dir) < 0)
        return EXIT_USAGE;
    o->spec.argv = (const char *const *)argv + optind;
    o->env[o->env_count] = NULL;
    o->spec.envp = o->env;
    return -1;
}

/* ---- running -------------------------------------------------------------- */

struct exec_files {
    int in_fd, out_fd, err_fd;
    bool relay_out, relay_err; /* to the judge's own stdout, stderr: escaped, line by line */
    struct exec_relay out_relay, err_relay;
    struct atomic_file out, err; /* --stdout FILE, --stderr FILE: the raw bytes */
    struct atomic_file report;
};

static bool fd_is_open(int fd)
{
    return fcntl(fd, F_GETFD) >= 0;
}

/* No FILE, or "-": the judge's own stream. */
static bool names_the_judges(const char *path)
{
    return !path || !strcmp(path, "-");
}

/* FILE gets the bytes as they are, through a temporary name renamed over it at the end; a
 * device or FIFO is opened and written in place (common/atomic_file.h). */
static int open_output(const char *option, const char *path, struct atomic_file *af, int *fd)
{
    char err[320];
    if (atomic_file_create(af, path, 0644, err, sizeof err) < 0) {
        fprintf(stderr, "judge exec: %s %s\n", option, err);
        return -1;
    }
    *fd = af->fd;
    return 0;
}

static int open_failed(const char *option, const char *path)
{
    fprintf(stderr, "judge exec: cannot open %s %s: %s\n", option, path, strerror(errno));
    return -1;
}

static int open_files(const struct exec_options *o, struct exec_files *f)
{
    *f = (struct exec_files){.in_fd = -1,
                             .out_fd = -1,
                             .err_fd = -1,
                             .out = {.dir_fd = -1, .fd = -1},
                             .err = {.dir_fd = -1, .fd = -1},
                             .report = {.dir_fd = -1, .fd = -1}};
    f->relay_out = names_the_judges(o->stdout_path) && fd_is_open(1);
    f->relay_err = names_the_judges(o->stderr_path) && fd_is_open(2);
    exec_relay_init(&f->out_relay, stdout);
    exec_relay_init(&f->err_relay, stderr);
    f->in_fd = o->stdin_path ? open(o->stdin_path, O_RDONLY | O_CLOEXEC) : fd_is_open(0) ? 0 : -1;
    if (o->stdin_path && f->in_fd < 0)
        return open_failed("--stdin", o->stdin_path);
    if (!names_the_judges(o->stdout_path) && open_output("--stdout", o->stdout_path, &f->out, &f->out_fd) < 0)
        return -1;
    if (!names_the_judges(o->stderr_path) && open_output("--stderr", o->stderr_path, &f->err, &f->err_fd) < 0)
        return -1;
    /* Created before the command runs: nothing it does can redirect the report. */
    char err[320];
    if (o->report_path && strcmp(o->report_path, "-") &&
        atomic_file_create(&f->report, o->report_path, 0644, err, sizeof err) < 0) {
        fprintf(stderr, "judge exec: %s\n", err);
        return -1;
    }
    return 0;
}

static void close_files(struct exec_files *f)
{
    if (f->in_fd > 2)
        close(f->in_fd);
    atomic_file_abort(&f->out); /* each a no-op once committed */
    atomic_file_abort(&f->err);
    atomic_file_abort(&f->report);
}

/* A regular file replaced is named: nothing is replaced silently. */
static int commit_file(struct atomic_file *af, const char *option, const char *path)
{
    char err[320];
    if (af->fd < 0)
        return 0;
    if (atomic_file_commit(af, err, sizeof err) < 0) {
        fprintf(stderr, "judge exec: %s\n", err);
        return -1;
    }
    if (af->replaced)
        fprintf(stderr, "judge exec: note: replaced the existing file %s (named by %s)\n", path, option);
    return 0;
}

static int commit_outputs(const struct exec_options *o, struct exec_files *f)
{
    int out = commit_file(&f->out, "--stdout", o->stdout_path);
    int err = commit_file(&f->err, "--stderr", o->stderr_path);
    return out < 0 || err < 0 ? -1 : 0;
}

static int write_report(const struct exec_options *o, struct exec_files *f, const struct jail_report *r)
{
    char *text = run_report_format(r);
    if (!text) {
        fprintf(stderr, "judge exec: out of memory formatting the report\n");
        return -1;
    }
    struct jail_error err = {0};
    int rc = 0;
    if (!strcmp(o->report_path, "-")) {
        if (fputs(text, stdout) == EOF || fflush(stdout) == EOF)
            snprintf(err.msg, sizeof err.msg, "cannot write the report to stdout: %s", strerror(errno));
    } else if (atomic_file_write(&f->report, text, strlen(text), err.msg, sizeof err.msg) == 0 &&
               atomic_file_commit(&f->report, err.msg, sizeof err.msg) == 0 && f->report.replaced) {
        fprintf(stderr, "judge exec: note: replaced the existing file %s (named by --report)\n",
                o->report_path);
    }
    if (err.msg[0]) {
        fprintf(stderr, "judge exec: %s\n", err.msg);
        rc = -1;
    }
    free(text);
    return rc;
}

/* How execve says that CMD itself is wrong (missing, not executable, not a program, a symlink
 * loop, a name too long): the user's mistake, not the judge's. */
static bool command_unusable(int exec_errno)
{
    static const int user_errors[] = {ENOENT, EACCES, ENOEXEC, ENOTDIR, ELOOP, ENAMETOOLONG};
    for (size_t i = 0; i < sizeof user_errors / sizeof *user_errors; i++)
        if (exec_errno == user_errors[i]) return true;
    return false;
}

static int command_error(const char *command, int exec_errno)
{
    fprintf(stderr, "judge exec: cannot run %s in the jail: %s%s\n", command, strerror(exec_errno),
            exec_errno == ENOENT ? " (the jail has this system's /usr, /bin and /lib, and --dir DIR at /bot)"
                                 : "");
    return EXIT_USAGE;
}

/* The relayed streams' last lines; -1 (errno set) when a stream could not take them. */
static int finish_relays(struct exec_files *f)
{
    int out = f->relay_out ? exec_relay_finish(&f->out_relay) : 0, out_errno = errno;
    int err = f->relay_err ? exec_relay_finish(&f->err_relay) : 0;
    if (out < 0) errno = out_errno;
    return out < 0 || err < 0 ? -1 : 0;
}

static int run(const struct exec_options *o, struct exec_files *f)
{
    struct isolation_report probe;
    struct jail_error err;
    jail_global_expect_profile(o->spec.profile);
    int ready = cli_isolation_ready("exec", o->spec.mode, NULL, &probe);
    if (ready != EXIT_OK) return ready;
    struct jail_writer out_writer = {exec_relay_write, &f->out_relay};
    struct jail_writer err_writer = {exec_relay_write, &f->err_relay};
    struct jail_io io = {f->in_fd, f->out_fd, f->err_fd, o->output_limit, o->stderr_limit,
                         f->relay_out ? &out_writer : NULL, f->relay_err ? &err_writer : NULL};
    struct jail_report report;
    int ran = jail_run(&o->spec, &io, &report, &err);
    if (finish_relays(f) < 0 && ran == 0) {
        fprintf(stderr, "judge exec: copying the command's output: %s\n", strerror(errno));
        return EXIT_INTERNAL;
    }
    if (ran < 0) {
        if (command_unusable(err.exec_errno)) return command_error(o->spec.argv[0], err.exec_errno);
        fprintf(stderr, "judge exec: %s\n", err.msg);
        return EXIT_INTERNAL;
    }
    if (commit_outputs(o, f) < 0 || (o->report_path && write_report(o, f, &report) < 0))
        return EXIT_IO;
    if (report.verdict == VERDICT_INTERNAL_ERROR) {
        fprintf(stderr, "judge exec: internal error: %s\n", report.note);
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

int cmd_exec(int argc, char **argv)
{
    struct exec_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    /* A reader that went away must surface as a write error, not kill the judge. */
    signal(SIGPIPE, SIG_IGN);
    struct exec_files files;
    if (open_files(&o, &files) < 0) {
        close_files(&files);
        return EXIT_USAGE;
    }
    rc = run(&o, &files);
    close_files(&files);
    return rc;
}
