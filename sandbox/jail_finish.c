/*
 * jail_finish.c - the end of a jail: take a forbidden call still pending,
 * stop whatever runs (a command still running is stopped by the judge, not
 * at fault), reap the init (pid 1), meter, return the cgroup (which fails loudly if
 * anything survived) or, in a jail without namespaces, kill its uid and check
 * none is left, decide the verdict and write the note.
 */
#include "sandbox/jail_flat.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static void take_pending_notifications(struct jail *j)
{
    struct jail_error ignored;
    while (jail_take_notification(j, &ignored) == 1) {
    }
}

/* The command's status from the init's record; without one (the init was
 * killed first: the jail was killed), the init's own status. */
static void gather_exit(const struct jail *j, struct verdict_facts *f, struct jail_report *r)
{
    int st = j->has_cmd_status ? j->cmd_status : j->wait_status;
    f->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    f->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    f->file_size_signal = f->signal == SIGXFSZ;
    r->exit_code = f->exit_code;
    r->signal = f->signal;
}

static void gather_facts(struct jail *j, struct verdict_facts *f, struct jail_report *r)
{
    memset(f, 0, sizeof *f);
    gather_exit(j, f, r);
    f->forbidden_syscall = j->has_syscall;
    f->killed = j->killed;
    f->kill_reason = j->kill_reason;
    f->cpu_over_limit = j->limits.cpu_ns && r->cpu_ns >= j->limits.cpu_ns;
    if (j->cg) {
        f->oom_killed = cgroup_oom_killed(j->cg);
        f->pids_limit_hit = cgroup_pids_limit_hit(j->cg);
    } else if (j->sweep) { /* RLIMIT_NPROC counts the slot uid's tasks */
        f->pids_limit_hit = j->limits.pids && j->uid_tasks_peak >= j->limits.pids;
    }
    if (j->memory_rlimit)
        f->memory_guess = verdict_memory_guess(f, r->memory_peak_bytes, j->limits.memory_bytes);
}

/* The judge's kill at the limit, the RLIMIT_CPU backstop's, or a total found
 * past the limit once it ended (children whose CPU no cgroup counted while
 * they ran are counted when reaped). */
static void cpu_note(const struct jail *j, const struct verdict_facts *f, const struct jail_report *r,
                     char *n, size_t cap)
{
    uint64_t limit_ms = j->limits.cpu_ns / 1000000u;
    if (f->killed && j->kill_reason == VERDICT_CPU_LIMIT)
        snprintf(n, cap, "%s", j->kill_note);
    else if (!f->killed && (f->signal == SIGXCPU || f->signal == SIGKILL))
        snprintf(n, cap, "cpu limit %" PRIu64 " ms passed (RLIMIT_CPU backstop)", limit_ms);
    else
        snprintf(n, cap,
                 "cpu limit %" PRIu64 " ms passed: %" PRIu64 " ms counted at its end, its children's included",
                 limit_ms, r->cpu_ns / 1000000u);
}

static void write_note(const struct jail *j, const struct verdict_facts *f, struct jail_report *r)
{
    char *n = r->note;
    size_t cap = sizeof r->note;
    switch (r->verdict) {
    case VERDICT_MEMORY_LIMIT:
        if (f->oom_killed)
            snprintf(n, cap, "memory limit %" PRIu64 " bytes reached (out-of-memory kill)",
                     j->limits.memory_bytes);
        else
            snprintf(n, cap,
                     "guess: %s %d under RLIMIT_DATA %" PRIu64 " bytes (no cgroup memory controller)",
                     f->signal ? "signal" : "exit code", f->signal ? f->signal : f->exit_code,
                     j->limits.memory_bytes);
        break;
    case VERDICT_FORBIDDEN_SYSCALL:
        snprintf(n, cap, "forbidden system call %s (%s)", j->syscall.name, j->syscall.arch);
        break;
    case VERDICT_PROCESS_LIMIT:
        snprintf(n, cap, "pids limit %" PRIu64 " reached", j->limits.pids);
        break;
    case VERDICT_CPU_LIMIT:
        cpu_note(j, f, r, n, cap);
        break;
    case VERDICT_RUNTIME_ERROR:
        if (f->file_size_signal)
            snprintf(n, cap, "file size limit %" PRIu64 " bytes passed (SIGXFSZ)", j->limits.fsize_bytes);
        else if (f->signal)
            snprintf(n, cap, "killed by signal %d (%s)", f->signal, strsignal(f->signal));
        else
            snprintf(n, cap, "exit code %d", f->exit_code);
        break;
    default:
        snprintf(n, cap, "%s", f->killed ? j->kill_note : "");
    }
}

/* Kill, take the last forbidden call, reap: afterwards nothing of the jail runs.
 * A command still running now is stopped by the judge, not at fault. */
static int stop_and_reap(struct jail *j, struct jail_error *err)
{
    if (j->sweep) {
        uint64_t tasks = uid_task_count(j->sweep_uid);
        if (tasks > j->uid_tasks_peak) j->uid_tasks_peak = tasks;
    }
    take_pending_notifications(j); /* before the kill, which would discard a pending call */
    jail_has_ended(j);
    if (!j->ended)
        jail_kill(j, VERDICT_OK, "still running at finish: stopped by the judge");
    else if (j->frozen) {
        struct jail_error ignored;
        jail_thaw(j, &ignored);
    }
    return jail_reap(j, true, err);
}

static void fill_meters(struct jail *j, struct jail_report *r)
{
    r->cpu_ns = jail_cpu_ns_final(j);
    r->memory_peak_bytes = jail_memory_peak(j);
    r->rss_peak_bytes = j->reaped ? (uint64_t)j->rusage.ru_maxrss * 1024u : 0;
    r->wall_ns = j->end_ns > j->start_ns ? j->end_ns - j->start_ns : 0;
    r->has_syscall = j->has_syscall;
    r->syscall = j->syscall;
    r->isolation = j->isolation;
}

static void internal_error(struct jail_report *r, const struct jail_error *err)
{
    r->verdict = VERDICT_INTERNAL_ERROR;
    snprintf(r->note, sizeof r->note, "%.159s", err->msg);
}

int jail_finish(struct jail *j, struct jail_report *report, struct jail_error *err)
{
    memset(report, 0, sizeof *report);
    int rc = stop_and_reap(j, err);
    fill_meters(j, report);
    struct verdict_facts facts;
    gather_facts(j, &facts, report);
    if (j->cg) { /* kills what is left and checks the cgroup is empty */
        struct jail_error cg_err;
        if (cgroup_release(j->cg, &cg_err) < 0 && rc == 0)
            rc = jail_fail(err, "processes survived the jail: %s", cg_err.msg);
        j->cg = NULL;
    }
    if (j->sweep) {
        struct jail_error sweep_err;
        if (uid_sweep(j->sweep_uid, &sweep_err) < 0 && rc == 0)
            rc = jail_fail(err, "processes survived the jail: %s", sweep_err.msg);
    }
    if (rc == 0) {
        report->verdict = verdict_decide(&facts);
        write_note(j, &facts, report);
        if (j->report_fd >= 0) /* launched without waiting for execve (jail_prewarm.h) */
            jail_spawn_exec_error(j->report_fd, report->note, sizeof report->note);
    } else {
        internal_error(report, err);
    }
    jail_free(j);
    return rc;
}
