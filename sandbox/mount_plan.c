/*
 * mount_plan.c - recording the steps of a jail's filesystem (every path and
 * failure message prepared in the parent, which may allocate) and walking
 * them in the child, which only makes system calls.
 */
#include "sandbox/mount_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    va_end(ap);
    return s;
}

static void keep(struct mount_plan *p, char **field, char *value)
{
    *field = value;
    if (!value) p->failed = true;
}

/* A step on jail_path (NULL: none), with its failure message. */
static struct mount_step *add(struct mount_plan *p, enum step_kind kind, const char *jail_path, char *what)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 48;
        struct mount_step *grown = realloc(p->steps, cap * sizeof *grown);
        if (!grown) {
            free(what);
            p->failed = true;
            return NULL;
        }
        p->steps = grown;
        p->cap = cap;
    }
    struct mount_step *s = &p->steps[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->fd = -1;
    keep(p, &s->what, what);
    if (jail_path) keep(p, &s->target, format("%s%s", p->root, jail_path));
    return s;
}

void plan_make_private(struct mount_plan *p)
{
    add(p, STEP_MAKE_PRIVATE, NULL, format("make mounts private"));
}

void plan_tmpfs(struct mount_plan *p, const char *jail_path, uint64_t bytes, const char *mode)
{
    struct mount_step *s =
        add(p, STEP_TMPFS, jail_path, format("mount tmpfs on %s", *jail_path ? jail_path : "the new root"));
    if (!s) return;
    s->flags = MS_NOSUID | MS_NODEV;
    if (bytes)
        keep(p, &s->source, format("size=%" PRIu64 ",nr_inodes=%" PRIu64 ",mode=%s", bytes,
                                   jail_tmpfs_inodes(bytes), mode));
    else /* the root: mount points only */
        keep(p, &s->source, format("size=1m,nr_inodes=4096,mode=%s", mode));
}

void plan_mkdir(struct mount_plan *p, const char *jail_path, mode_t mode)
{
    struct mount_step *s = add(p, STEP_MKDIR, jail_path, format("mkdir %s", jail_path));
    if (s) s->mode = mode;
}

void plan_mkfile(struct mount_plan *p, const char *jail_path)
{
    struct mount_step *s = add(p, STEP_MKFILE, jail_path, format("create mount point %s", jail_path));
    if (s) s->mode = 0444;
}

void plan_write_file(struct mount_plan *p, const char *jail_path, const char *text)
{
    struct mount_step *s = add(p, STEP_WRITE_FILE, jail_path, format("write %s", jail_path));
    if (!s) return;
    s->mode = 0444;
    keep(p, &s->source, strdup(text));
}

void plan_symlink(struct mount_plan *p, const char *jail_path, const char *target)
{
    struct mount_step *s = add(p, STEP_SYMLINK, jail_path, format("symlink %s -> %s", jail_path, target));
    if (s) keep(p, &s->source, strdup(target));
}

void plan_bind(struct mount_plan *p, const char *host, const char *jail_path, uint64_t attr)
{
    struct mount_step *s = add(p, STEP_BIND, jail_path, format("bind %s on %s", host, jail_path));
    if (!s) return;
    s->attr = attr;
    keep(p, &s->source, strdup(host));
}

void plan_proc(struct mount_plan *p, const char *jail_path)
{
    struct mount_step *s = add(p, STEP_PROC, jail_path, format("mount proc on %s", jail_path));
    if (s) s->flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
}

void plan_chdir(struct mount_plan *p, const char *workdir)
{
    struct mount_step *s = add(p, STEP_CHDIR, NULL, format("chdir %s", workdir));
    if (s) keep(p, &s->target, strdup(workdir));
}

void plan_pivot(struct mount_plan *p, const char *workdir)
{
    struct mount_step *s = add(p, STEP_PIVOT, NULL, format("pivot_root"));
    if (s) keep(p, &s->target, strdup(p->root));
    add(p, STEP_ROOT_READONLY, NULL, format("remount / read-only"));
    plan_chdir(p, workdir);
}

void plan_enter_template(struct mount_plan *p, int template_fd)
{
    struct mount_step *s = add(p, STEP_ENTER_TEMPLATE, NULL, format("enter the template mount namespace"));
    if (s) s->fd = template_fd;
}

int plan_attach_tree(struct mount_plan *p, int tree_fd, const char *what, const char *jail_path, uint64_t attr,
                     struct jail_error *err)
{
    struct mount_step *s = add(p, STEP_ATTACH_TREE, jail_path, format("attach %s on %s", what, jail_path));
    if (!s) {
        if (tree_fd >= 0) close(tree_fd);
        return jail_fail(err, "out of memory building the mount plan");
    }
    s->fd_owned = true;
    s->fd = tree_fd;
    struct mount_attr a = {.attr_set = attr};
    if (s->fd < 0 || mount_setattr(s->fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof a) < 0)
        return jail_fail_errno(err, errno, "detach a copy of %s", what);
    return 0;
}

void plan_copy_in(struct mount_plan *p, int dir_fd, const char *what, const char *jail_path, uint64_t tmpfs_bytes,
                  uint64_t tmpfs_inodes)
{
    struct mount_step *s = add(p, STEP_COPY_IN, jail_path, format("copy %s to %s", what, jail_path));
    if (!s) {
        close(dir_fd);
        return;
    }
    s->fd_owned = true;
    s->fd = dir_fd;
    keep(p, &s->source, format("size=%" PRIu64 ",nr_inodes=%" PRIu64 ",mode=0755", tmpfs_bytes, tmpfs_inodes));
}

int plan_attach(struct mount_plan *p, const char *host_dir, const char *jail_path, uint64_t attr,
                struct jail_error *err)
{
    int fd = open_tree(AT_FDCWD, host_dir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    return plan_attach_tree(p, fd, host_dir, jail_path, attr, err);
}

const struct mount_step *plan_created_at(const struct mount_plan *p, const char *jail_path)
{
    size_t root_len = strlen(p->root);
    for (size_t i = 0; i < p->n; i++) {
        const struct mount_step *s = &p->steps[i];
        bool under_root = s->target && strncmp(s->target, p->root, root_len) == 0;
        if (under_root && s->kind != STEP_BIND && strcmp(s->target + root_len, jail_path) == 0) return s;
    }
    return NULL;
}

bool mount_plan_uses_template(const struct mount_plan *plan)
{
    return plan->from_template;
}

size_t mount_plan_steps(const struct mount_plan *plan)
{
    return plan->n;
}

void mount_plan_free(struct mount_plan *plan)
{
    if (!plan) return;
    for (size_t i = 0; i < plan->n; i++) {
        free(plan->steps[i].target);
        free(plan->steps[i].source);
        free(plan->steps[i].what);
        if (plan->steps[i].fd_owned && plan->steps[i].fd >= 0) close(plan->steps[i].fd);
    }
    free(plan->steps);
    free(plan);
}

/* ---- child side ---- */

static unsigned long attr_to_remount_flags(uint64_t attr)
{
    return MS_REMOUNT | MS_BIND | (attr & MOUNT_ATTR_RDONLY ? MS_RDONLY : 0) |
           (attr & MOUNT_ATTR_NOSUID ? MS_NOSUID : 0) | (attr & MOUNT_ATTR_NODEV ? MS_NODEV : 0) |
           (attr & MOUNT_ATTR_NOEXEC ? MS_NOEXEC : 0);
}

/* mount_setattr applies the flags to every submount too; kernels before 5.12
 * (and valgrind) lack it, and the classic remount covers the top mount only. */
static int bind(const struct mount_step *s)
{
    if (mount(s->source, s->target, "none", MS_BIND | MS_REC, NULL) < 0) return -1;
    struct mount_attr attr = {.attr_set = s->attr};
    int rc = mount_setattr(AT_FDCWD, s->target, AT_RECURSIVE, &attr, sizeof attr);
    if (rc == 0 || errno != ENOSYS) return rc;
    return mount("none", s->target, "none", attr_to_remount_flags(s->attr), NULL);
}

/* subset=pid (Linux 5.8): the jail's /proc holds its own processes and
 * nothing of the host's (cmdline, config.gz, loadavg, pressure, diskstats,
 * keys, timers, interrupts, kallsyms, sysrq-trigger, acpi, scsi, sys, ...);
 * older kernels refuse the option, and get the whole /proc as before. */
static int mount_proc(const struct mount_step *s)
{
    if (mount("proc", s->target, "proc", s->flags, "subset=pid") == 0) return 0;
    return errno == EINVAL ? mount("proc", s->target, "proc", s->flags, NULL) : -1;
}

static int make_file(const struct mount_step *s)
{
    int fd = open(s->target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, s->mode);
    return fd < 0 ? -1 : close(fd);
}

static int write_file(const struct mount_step *s)
{
    int fd = open(s->target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, s->mode);
    if (fd < 0) return -1;
    size_t len = strlen(s->source), done = 0;
    while (done < len) {
        ssize_t n = write(fd, s->source + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = n < 0 ? errno : EIO;
            close(fd);
            errno = saved;
            return -1;
        }
        done += (size_t)n;
    }
    return close(fd);
}

/* pivot_root(".", "."): the old root ends up stacked on the new one and is
 * detached at once, so no path to the host tree remains (pivot_root(2)). */
static int pivot(const struct mount_step *s)
{
    if (chdir(s->target) < 0 || syscall(SYS_pivot_root, ".", ".") < 0) return -1;
    if (umount2(".", MNT_DETACH) < 0) return -1;
    return chdir("/");
}

/* setns lands on the template's root; unshare gives this jail its own copy. */
static int enter_template(const struct mount_step *s)
{
    if (setns(s->fd, CLONE_NEWNS) < 0) return -1;
    return unshare(CLONE_NEWNS);
}

static int attach_tree(const struct mount_step *s)
{
    return move_mount(s->fd, "", AT_FDCWD, s->target, MOVE_MOUNT_F_EMPTY_PATH);
}

static int apply_step(const struct mount_step *s)
{
    switch (s->kind) {
    case STEP_ENTER_TEMPLATE:
        return enter_template(s);
    case STEP_ATTACH_TREE:
        return attach_tree(s);
    case STEP_COPY_IN:
        return mount_copy_in(s);
    case STEP_MAKE_PRIVATE:
        return mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL);
    case STEP_TMPFS:
        return mount("tmpfs", s->target, "tmpfs", s->flags, s->source);
    case STEP_MKDIR:
        return mkdir(s->target, s->mode);
    case STEP_MKFILE:
        return make_file(s);
    case STEP_WRITE_FILE:
        return write_file(s);
    case STEP_SYMLINK:
        return symlink(s->source, s->target);
    case STEP_BIND:
        return bind(s);
    case STEP_PROC:
        return mount_proc(s);
    case STEP_PIVOT:
        return pivot(s);
    case STEP_ROOT_READONLY:
        return mount("none", "/", "none", MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
    case STEP_CHDIR:
        return chdir(s->target);
    }
    errno = EINVAL;
    return -1;
}

int mount_plan_apply(const struct mount_plan *plan, const char **step)
{
    umask(022); /* the judge's umask must not hide /dev or /etc from the bot; it keeps this one */
    for (size_t i = 0; i < plan->n; i++)
        if (apply_step(&plan->steps[i]) < 0) {
            *step = plan->steps[i].what;
            return -errno;
        }
    return 0;
}
