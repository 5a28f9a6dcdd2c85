/*
 * mount_root.c - the jail's filesystem: a fresh tmpfs root holding read-only
 * binds of the system (/usr, and /bin, /lib, ... as binds or as the symlinks
 * Debian makes them), the dynamic loader's /etc files, a /dev of five bound
 * nodes, a size-capped /tmp, its own /proc, the bot at /bot (read-only, the
 * working directory), its rw_dir at /data and any extra read-only binds; then
 * pivot_root into it, detach the host tree and make the root read-only.
 *
 * The parent turns a spec into a flat list of steps with every path and
 * message prepared; the child only walks the list making system calls.
 */
#include "sandbox/jail_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ROOT_TMPFS_OPTIONS "size=1m,nr_inodes=4096,mode=0755"

enum step_kind {
    STEP_MAKE_PRIVATE, STEP_TMPFS, STEP_MKDIR, STEP_MKFILE, STEP_SYMLINK, STEP_BIND, STEP_PROC,
    STEP_PIVOT, STEP_ROOT_READONLY, STEP_CHDIR
};

struct mount_step {
    enum step_kind kind;
    char *target;        /* in the new root (prefixed by root_mount) until the pivot */
    char *source;        /* bind source, symlink target or tmpfs options */
    char *what;          /* message on failure: "bind /usr on /usr" */
    unsigned long flags; /* mount(2) flags */
    uint64_t attr;       /* MOUNT_ATTR_* set recursively after a bind */
    mode_t mode;
};

struct mount_plan {
    struct mount_step *steps;
    size_t n, cap;
    const char *root;    /* borrowed: mount_plan_input.root_mount */
    bool failed;         /* out of memory while building */
};

static const char *const system_dirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64"};
static const char *const loader_files[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                           "/etc/alternatives"};
static const char *const dev_nodes[] = {"null", "zero", "full", "random", "urandom"};
/* Jail paths an extra bind may not cover or sit under. */
static const char *const reserved_paths[] = {JAIL_BOT_DIR, JAIL_RW_DIR, "/tmp", "/proc", "/dev"};

#define ATTR_READ_ONLY (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)
#define ATTR_READ_WRITE (MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

static struct mount_step *add_step(struct mount_plan *p, enum step_kind kind)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 48;
        struct mount_step *grown = realloc(p->steps, cap * sizeof *grown);
        if (!grown) {
            p->failed = true;
            return NULL;
        }
        p->steps = grown;
        p->cap = cap;
    }
    struct mount_step *s = &p->steps[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    return s;
}

/* A step on `jail_path` (a path as the jail sees it). */
static struct mount_step *add_at(struct mount_plan *p, enum step_kind kind, const char *jail_path)
{
    struct mount_step *s = add_step(p, kind);
    if (s && !(s->target = format("%s%s", p->root, jail_path)))
        p->failed = true;
    return s;
}

static void set_what(struct mount_plan *p, struct mount_step *s, char *what)
{
    if (!s)
        return;
    s->what = what;
    if (!what)
        p->failed = true;
}

static void add_mkdir(struct mount_plan *p, const char *jail_path, mode_t mode)
{
    struct mount_step *s = add_at(p, STEP_MKDIR, jail_path);
    if (s)
        s->mode = mode;
    set_what(p, s, format("mkdir %s", jail_path));
}

static void add_mkfile(struct mount_plan *p, const char *jail_path)
{
    struct mount_step *s = add_at(p, STEP_MKFILE, jail_path);
    if (s)
        s->mode = 0444;
    set_what(p, s, format("create mount point %s", jail_path));
}

static void add_bind(struct mount_plan *p, const char *host, const char *jail_path, uint64_t attr)
{
    struct mount_step *s = add_at(p, STEP_BIND, jail_path);
    if (!s)
        return;
    s->attr = attr;
    if (!(s->source = strdup(host)))
        p->failed = true;
    set_what(p, s, format("bind %s on %s", host, jail_path));
}

static void add_tmpfs(struct mount_plan *p, const char *jail_path, char *options)
{
    struct mount_step *s = add_at(p, STEP_TMPFS, jail_path);
    if (!s) {
        free(options);
        return;
    }
    s->flags = MS_NOSUID | MS_NODEV;
    s->source = options;
    if (!options)
        p->failed = true;
    set_what(p, s, format("mount tmpfs on %s", *jail_path ? jail_path : "the new root"));
}

/* Bind a directory or a file (a file needs a file as its mount point). */
static void add_bind_of(struct mount_plan *p, const char *host, const char *jail_path, bool is_dir, uint64_t attr)
{
    if (is_dir)
        add_mkdir(p, jail_path, 0755);
    else
        add_mkfile(p, jail_path);
    add_bind(p, host, jail_path, attr);
}

static int add_system_dir(struct mount_plan *p, const char *dir, struct jail_error *err)
{
    struct stat st;
    if (lstat(dir, &st) < 0)
        return 0; /* absent on this system: nothing to show */
    if (S_ISLNK(st.st_mode)) { /* Debian's /bin -> usr/bin: the same link in the jail */
        char target[PATH_MAX];
        ssize_t n = readlink(dir, target, sizeof target - 1);
        if (n < 0)
            return jail_fail_errno(err, errno, "readlink %s", dir);
        target[n] = '\0';
        struct mount_step *s = add_at(p, STEP_SYMLINK, dir);
        if (s && !(s->source = strdup(target)))
            p->failed = true;
        set_what(p, s, format("symlink %s -> %s", dir, target));
        return 0;
    }
    if (S_ISDIR(st.st_mode))
        add_bind_of(p, dir, dir, true, ATTR_READ_ONLY);
    return 0;
}

static void add_loader_files(struct mount_plan *p)
{
    add_mkdir(p, "/etc", 0755);
    for (size_t i = 0; i < sizeof loader_files / sizeof *loader_files; i++) {
        struct stat st;
        if (stat(loader_files[i], &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
            add_bind_of(p, loader_files[i], loader_files[i], S_ISDIR(st.st_mode), ATTR_READ_ONLY);
    }
}

/* Device nodes need a mount without nodev; they stay nosuid and noexec. */
static void add_dev(struct mount_plan *p)
{
    add_mkdir(p, "/dev", 0755);
    for (size_t i = 0; i < sizeof dev_nodes / sizeof *dev_nodes; i++) {
        char host[32], jail_path[32];
        snprintf(host, sizeof host, "/dev/%s", dev_nodes[i]);
        snprintf(jail_path, sizeof jail_path, "/dev/%s", dev_nodes[i]);
        add_mkfile(p, jail_path);
        add_bind(p, host, jail_path, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
    }
}

static void add_tmp_and_proc(struct mount_plan *p, uint64_t tmp_bytes)
{
    add_mkdir(p, "/tmp", 0755);
    add_tmpfs(p, "/tmp", format("size=%" PRIu64 ",mode=1777", tmp_bytes));
    add_mkdir(p, "/proc", 0555);
    struct mount_step *s = add_at(p, STEP_PROC, "/proc");
    if (s)
        s->flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    set_what(p, s, format("mount proc on /proc"));
}

static int require_dir(const char *path, const char *role, struct jail_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return jail_fail_errno(err, errno, "%s %s", role, path);
    if (!S_ISDIR(st.st_mode))
        return jail_fail(err, "%s %s: not a directory", role, path);
    return 0;
}

static bool is_under(const char *path, const char *dir)
{
    size_t len = strlen(dir);
    return strncmp(path, dir, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/* Absolute, no empty, "." or ".." component, no trailing slash. */
static bool is_clean_absolute(const char *path)
{
    if (path[0] != '/' || strlen(path) >= PATH_MAX / 2)
        return false;
    const char *c = path + 1;
    do {
        size_t len = strcspn(c, "/");
        if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        c += len;
    } while (*c++ == '/');
    return true;
}

/* The step that creates jail_path, if any. */
static const struct mount_step *created_at(const struct mount_plan *p, const char *jail_path)
{
    size_t root_len = strlen(p->root);
    for (size_t i = 0; i < p->n; i++) {
        const struct mount_step *s = &p->steps[i];
        if (s->target && strcmp(s->target + root_len, jail_path) == 0 && s->kind != STEP_BIND)
            return s;
    }
    return NULL;
}

/* mkdir -p for the parents of an extra bind; none may be a link or file we made. */
static int add_parents(struct mount_plan *p, const char *jail_path, struct jail_error *err)
{
    char prefix[PATH_MAX];
    for (const char *slash = strchr(jail_path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        size_t len = (size_t)(slash - jail_path);
        memcpy(prefix, jail_path, len);
        prefix[len] = '\0';
        const struct mount_step *s = created_at(p, prefix);
        if (!s)
            add_mkdir(p, prefix, 0755);
        else if (s->kind != STEP_MKDIR)
            return jail_fail(err, "extra bind %s: %s is not a directory in the jail", jail_path, prefix);
    }
    return 0;
}

static int add_extra_bind(struct mount_plan *p, const char *path, struct jail_error *err)
{
    if (!is_clean_absolute(path))
        return jail_fail(err, "extra bind %s: not a clean absolute path", path);
    for (size_t i = 0; i < sizeof reserved_paths / sizeof *reserved_paths; i++)
        if (is_under(path, reserved_paths[i]) || is_under(reserved_paths[i], path))
            return jail_fail(err, "extra bind %s: overlaps the jail's %s", path, reserved_paths[i]);
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (is_under(path, system_dirs[i]))
            return 0; /* already visible, read-only, through the system binds */
    if (created_at(p, path))
        return 0; /* listed twice, or one of the loader files */
    struct stat st;
    if (stat(path, &st) < 0)
        return jail_fail_errno(err, errno, "extra bind %s", path);
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
        return jail_fail(err, "extra bind %s: neither a directory nor a regular file", path);
    if (add_parents(p, path, err) < 0)
        return -1;
    add_bind_of(p, path, path, S_ISDIR(st.st_mode), ATTR_READ_ONLY);
    return 0;
}

static int add_bot_and_data(struct mount_plan *p, const struct mount_plan_input *in, struct jail_error *err)
{
    if (in->bot_dir) {
        if (require_dir(in->bot_dir, "bot directory", err) < 0)
            return -1;
        add_bind_of(p, in->bot_dir, JAIL_BOT_DIR, true, ATTR_READ_ONLY);
    }
    if (in->rw_dir) {
        if (require_dir(in->rw_dir, "rw directory", err) < 0)
            return -1;
        add_bind_of(p, in->rw_dir, JAIL_RW_DIR, true, ATTR_READ_WRITE);
    }
    for (const char *const *b = in->extra_ro_binds; b && *b; b++)
        if (add_extra_bind(p, *b, err) < 0)
            return -1;
    return 0;
}

static void add_pivot_and_finish(struct mount_plan *p, const char *workdir)
{
    struct mount_step *s = add_step(p, STEP_PIVOT);
    if (s && !(s->target = strdup(p->root)))
        p->failed = true;
    set_what(p, s, format("pivot_root"));
    s = add_step(p, STEP_ROOT_READONLY);
    set_what(p, s, format("remount / read-only"));
    s = add_step(p, STEP_CHDIR);
    if (s && !(s->target = strdup(workdir)))
        p->failed = true;
    set_what(p, s, format("chdir %s", workdir));
}

static int build_steps(struct mount_plan *p, const struct mount_plan_input *in, struct jail_error *err)
{
    if (in->make_private) {
        struct mount_step *s = add_step(p, STEP_MAKE_PRIVATE);
        set_what(p, s, format("make mounts private"));
    }
    add_tmpfs(p, "", strdup(ROOT_TMPFS_OPTIONS));
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (add_system_dir(p, system_dirs[i], err) < 0)
            return -1;
    add_loader_files(p);
    add_dev(p);
    add_tmp_and_proc(p, in->tmp_bytes);
    if (add_bot_and_data(p, in, err) < 0)
        return -1;
    add_pivot_and_finish(p, in->bot_dir ? JAIL_BOT_DIR : "/");
    return p->failed ? jail_fail(err, "out of memory building the mount plan") : 0;
}

int mount_plan_build(const struct mount_plan_input *in, struct mount_plan **out, struct jail_error *err)
{
    struct mount_plan *p = calloc(1, sizeof *p);
    if (!p)
        return jail_fail(err, "out of memory");
    p->root = in->root_mount;
    if (build_steps(p, in, err) < 0) {
        mount_plan_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

void mount_plan_free(struct mount_plan *plan)
{
    if (!plan)
        return;
    for (size_t i = 0; i < plan->n; i++) {
        free(plan->steps[i].target);
        free(plan->steps[i].source);
        free(plan->steps[i].what);
    }
    free(plan->steps);
    free(plan);
}

size_t mount_plan_steps(const struct mount_plan *plan)
{
    return plan->n;
}

/* ---- child side ---- */

static unsigned long attr_to_remount_flags(uint64_t attr)
{
    return MS_REMOUNT | MS_BIND | (attr & MOUNT_ATTR_RDONLY ? MS_RDONLY : 0)
           | (attr & MOUNT_ATTR_NOSUID ? MS_NOSUID : 0) | (attr & MOUNT_ATTR_NODEV ? MS_NODEV : 0)
           | (attr & MOUNT_ATTR_NOEXEC ? MS_NOEXEC : 0);
}

/* mount_setattr applies the flags to every submount too; kernels before 5.12
 * (and valgrind) lack it, and the classic remount covers the top mount only. */
static int bind(const struct mount_step *s)
{
    if (mount(s->source, s->target, "none", MS_BIND | MS_REC, NULL) < 0)
        return -1;
    struct mount_attr attr = {.attr_set = s->attr};
    int rc = mount_setattr(AT_FDCWD, s->target, AT_RECURSIVE, &attr, sizeof attr);
    if (rc == 0 || errno != ENOSYS)
        return rc;
    return mount("none", s->target, "none", attr_to_remount_flags(s->attr), NULL);
}

static int make_file(const struct mount_step *s)
{
    int fd = open(s->target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, s->mode);
    return fd < 0 ? -1 : close(fd);
}

/* pivot_root(".", "."): the old root ends up stacked on the new one and is
 * detached at once, so no path to the host tree remains (pivot_root(2)). */
static int pivot(const struct mount_step *s)
{
    if (chdir(s->target) < 0 || syscall(SYS_pivot_root, ".", ".") < 0)
        return -1;
    if (umount2(".", MNT_DETACH) < 0)
        return -1;
    return chdir("/");
}

static int apply_step(const struct mount_step *s)
{
    switch (s->kind) {
    case STEP_MAKE_PRIVATE: return mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL);
    case STEP_TMPFS: return mount("tmpfs", s->target, "tmpfs", s->flags, s->source);
    case STEP_MKDIR: return mkdir(s->target, s->mode);
    case STEP_MKFILE: return make_file(s);
    case STEP_SYMLINK: return symlink(s->source, s->target);
    case STEP_BIND: return bind(s);
    case STEP_PROC: return mount("proc", s->target, "proc", s->flags, NULL);
    case STEP_PIVOT: return pivot(s);
    case STEP_ROOT_READONLY:
        return mount("none", "/", "none", MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
    case STEP_CHDIR: return chdir(s->target);
    }
    errno = EINVAL;
    return -1;
}

int mount_plan_apply(const struct mount_plan *plan, const char **step)
{
    for (size_t i = 0; i < plan->n; i++)
        if (apply_step(&plan->steps[i]) < 0) {
            *step = plan->steps[i].what;
            return -errno;
        }
    return 0;
}
