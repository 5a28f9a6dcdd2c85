/*
 * mount_root.c - the jail's filesystem: a fresh tmpfs root holding read-only
 * binds of the system (/usr, and /bin, /lib, ... as binds or as the symlinks
 * Debian makes them), the dynamic loader's /etc files and the jail's own
 * (jail_etc.c), a /dev of five bound
 * nodes, a size-capped /tmp, its own /proc, the bot at /bot (read-only, the
 * working directory), its rw_dir at /data and any extra read-only binds; then
 * pivot_root into it, detach the host tree and make the root read-only.
 *
 * As root the part every jail shares is built once, in a template mount
 * namespace (mount_template.c); a jail then enters it, takes a private copy
 * and adds only /tmp, /proc and its directories, attached from detached
 * trees the parent cloned with open_tree: no copy of the host's mounts, no
 * pivot and no unmount (whose RCU grace period is the slowest step) per jail.
 * Extra binds that need a new mount point take the full path.
 * This file decides the steps; mount_plan.c records and walks them.
 */
#include "sandbox/mount_plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const system_dirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64"};
static const char *const loader_files[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                           "/etc/alternatives"};
static const char *const dev_nodes[] = {"null", "zero", "full", "random", "urandom"};
/* Jail paths an extra bind may not cover or sit under. */
static const char *const reserved_paths[] = {JAIL_BOT_DIR, JAIL_RW_DIR, "/tmp", "/proc", "/dev"};

#define ATTR_READ_ONLY  (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)
#define ATTR_READ_WRITE (MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)

/* Bind a directory or a file (a file needs a file as its mount point). */
static void add_bind_of(struct mount_plan *p, const char *host, const char *jail_path, bool is_dir,
                        uint64_t attr)
{
    if (is_dir)
        plan_mkdir(p, jail_path, 0755);
    else
        plan_mkfile(p, jail_path);
    plan_bind(p, host, jail_path, attr);
}

static int add_system_dir(struct mount_plan *p, const char *dir, struct jail_error *err)
{
    struct stat st;
    if (lstat(dir, &st) < 0) return 0; /* absent on this system: nothing to show */
    if (S_ISLNK(st.st_mode)) {         /* Debian's /bin -> usr/bin: the same link in the jail */
        char target[PATH_MAX];
        ssize_t n = readlink(dir, target, sizeof target - 1);
        if (n < 0) return jail_fail_errno(err, errno, "readlink %s", dir);
        target[n] = '\0';
        plan_symlink(p, dir, target);
        return 0;
    }
    if (S_ISDIR(st.st_mode)) add_bind_of(p, dir, dir, true, ATTR_READ_ONLY);
    return 0;
}

static void add_loader_files(struct mount_plan *p)
{
    plan_mkdir(p, "/etc", 0755);
    for (size_t i = 0; i < sizeof loader_files / sizeof *loader_files; i++) {
        struct stat st;
        if (stat(loader_files[i], &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
            add_bind_of(p, loader_files[i], loader_files[i], S_ISDIR(st.st_mode), ATTR_READ_ONLY);
    }
}

/* Device nodes need a mount without nodev; they stay nosuid and noexec. */
static void add_dev(struct mount_plan *p)
{
    plan_mkdir(p, "/dev", 0755);
    for (size_t i = 0; i < sizeof dev_nodes / sizeof *dev_nodes; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/%s", dev_nodes[i]);
        plan_mkfile(p, path);
        plan_bind(p, path, path, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
    }
}

int mount_check_host_devices(const char *dev_dir, struct jail_error *err)
{
    for (size_t i = 0; i < sizeof dev_nodes / sizeof *dev_nodes; i++) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%.4000s/%s", dev_dir, dev_nodes[i]);
        if (stat(path, &st) < 0 || !S_ISCHR(st.st_mode))
            return jail_fail(err, "jail: the host's %s is not a character device; fix: recreate it as root "
                                  "(e.g. rm -f /dev/null && mknod -m 666 /dev/null c 1 3)", path);
    }
    return 0;
}

static void add_tmp_and_proc(struct mount_plan *p, uint64_t tmp_bytes)
{
    plan_mkdir(p, "/tmp", 0755);
    plan_tmpfs(p, "/tmp", tmp_bytes, "1777");
    plan_mkdir(p, "/proc", 0555);
    plan_proc(p, "/proc");
}

static int require_dir(const char *path, const char *role, struct jail_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0) return jail_fail_errno(err, errno, "%s %s", role, path);
    if (!S_ISDIR(st.st_mode)) return jail_fail(err, "%s %s: not a directory", role, path);
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
    if (path[0] != '/' || strlen(path) >= PATH_MAX / 2) return false;
    const char *c = path + 1;
    do {
        size_t len = strcspn(c, "/");
        if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.')) return false;
        c += len;
    } while (*c++ == '/');
    return true;
}

static bool in_system_dirs(const char *path)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (is_under(path, system_dirs[i])) return true;
    return false;
}

/* mkdir -p for the parents of an extra bind; none may be a link or file we made. */
static int add_parents(struct mount_plan *p, const char *jail_path, struct jail_error *err)
{
    char prefix[PATH_MAX];
    for (const char *slash = strchr(jail_path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        size_t len = (size_t)(slash - jail_path);
        memcpy(prefix, jail_path, len);
        prefix[len] = '\0';
        const struct mount_step *s = plan_created_at(p, prefix);
        if (!s)
            plan_mkdir(p, prefix, 0755);
        else if (s->kind != STEP_MKDIR)
            return jail_fail(err, "extra bind %s: %s is not a directory in the jail", jail_path, prefix);
    }
    return 0;
}

static int add_extra_bind(struct mount_plan *p, const char *path, struct jail_error *err)
{
    if (!is_clean_absolute(path)) return jail_fail(err, "extra bind %s: not a clean absolute path", path);
    for (size_t i = 0; i < sizeof reserved_paths / sizeof *reserved_paths; i++)
        if (is_under(path, reserved_paths[i]) || is_under(reserved_paths[i], path))
            return jail_fail(err, "extra bind %s: overlaps the jail's %s", path, reserved_paths[i]);
    if (in_system_dirs(path) || plan_created_at(p, path))
        return 0; /* already visible read-only, listed twice, or one of the loader files */
    struct stat st;
    if (stat(path, &st) < 0) return jail_fail_errno(err, errno, "extra bind %s", path);
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
        return jail_fail(err, "extra bind %s: neither a directory nor a regular file", path);
    if (add_parents(p, path, err) < 0) return -1;
    add_bind_of(p, path, path, S_ISDIR(st.st_mode), ATTR_READ_ONLY);
    return 0;
}

/* /bot: a copy (jail_stage.c: its mountinfo names no host path), else a bind. */
static int add_bot(struct mount_plan *p, const char *bot_dir, bool template_copy, struct jail_error *err)
{
    struct bot_stage staged;
    if (require_dir(bot_dir, "bot directory", err) < 0) return -1;
    if (!template_copy) plan_mkdir(p, JAIL_BOT_DIR, 0755);
    if (jail_stage_bot(bot_dir, &staged) == 0) {
        if (staged.tree_fd >= 0)
            return plan_attach_tree(p, staged.tree_fd, bot_dir, JAIL_BOT_DIR, ATTR_READ_ONLY, err);
        plan_copy_in(p, staged.dir_fd, bot_dir, JAIL_BOT_DIR, staged.tmpfs_bytes, staged.tmpfs_inodes);
        return 0;
    }
    if (template_copy) return plan_attach(p, bot_dir, JAIL_BOT_DIR, ATTR_READ_ONLY, err);
    plan_bind(p, bot_dir, JAIL_BOT_DIR, ATTR_READ_ONLY);
    return 0;
}

static int add_bot_and_data(struct mount_plan *p, const struct mount_plan_input *in, struct jail_error *err)
{
    if (in->bot_dir && add_bot(p, in->bot_dir, false, err) < 0) return -1;
    if (in->rw_dir) {
        if (require_dir(in->rw_dir, "rw directory", err) < 0) return -1;
        add_bind_of(p, in->rw_dir, JAIL_RW_DIR, true, ATTR_READ_WRITE);
    }
    for (const char *const *b = in->extra_ro_binds; b && *b; b++)
        if (add_extra_bind(p, *b, err) < 0) return -1;
    return 0;
}

/* What every jail shares: the root tmpfs, the system, the loader files, /dev. */
static int add_shared_part(struct mount_plan *p, bool make_private, struct jail_error *err)
{
    if (make_private) plan_make_private(p);
    plan_tmpfs(p, "", 0, "0755");
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (add_system_dir(p, system_dirs[i], err) < 0) return -1;
    add_loader_files(p);
    plan_jail_etc(p);
    add_dev(p);
    return 0;
}

/* The command's working directory inside the jail. */
static const char *work_dir(const struct mount_plan_input *in)
{
    return in->workdir ? in->workdir : in->bot_dir ? JAIL_BOT_DIR : "/";
}

static int build_whole(struct mount_plan *p, const struct mount_plan_input *in, struct jail_error *err)
{
    if (add_shared_part(p, in->make_private, err) < 0) return -1;
    add_tmp_and_proc(p, in->tmp_bytes);
    if (add_bot_and_data(p, in, err) < 0) return -1;
    plan_pivot(p, work_dir(in));
    return 0;
}

/* The template: the shared part, empty mount points for the per-jail part. */
static int build_template(struct mount_plan *p, bool make_private, struct jail_error *err)
{
    if (add_shared_part(p, make_private, err) < 0) return -1;
    plan_mkdir(p, "/tmp", 0755);
    plan_mkdir(p, "/proc", 0555);
    plan_mkdir(p, JAIL_BOT_DIR, 0755);
    plan_mkdir(p, JAIL_RW_DIR, 0755);
    plan_pivot(p, "/");
    return 0;
}

static int build_from_template(struct mount_plan *p, const struct mount_plan_input *in,
                               struct jail_error *err)
{
    p->from_template = true;
    p->root = "";
    plan_enter_template(p, in->template_fd);
    plan_tmpfs(p, "/tmp", in->tmp_bytes, "1777");
    plan_proc(p, "/proc");
    if (in->bot_dir && add_bot(p, in->bot_dir, true, err) < 0) return -1;
    if (in->rw_dir && (require_dir(in->rw_dir, "rw directory", err) < 0 ||
                       plan_attach(p, in->rw_dir, JAIL_RW_DIR, ATTR_READ_WRITE, err) < 0))
        return -1;
    plan_chdir(p, work_dir(in));
    return 0;
}

/* Extra binds outside the system trees need mount points the template lacks. */
static bool needs_new_mount_points(const char *const *extra)
{
    for (const char *const *b = extra; b && *b; b++)
        if (!is_clean_absolute(*b) || !in_system_dirs(*b)) return true;
    return false;
}

static int build_plan(const struct mount_plan_input *in, bool template, struct mount_plan **out,
                      struct jail_error *err)
{
    struct mount_plan *p = calloc(1, sizeof *p);
    if (!p) return jail_fail(err, "out of memory");
    p->root = in->root_mount;
    int rc;
    if (template)
        rc = build_template(p, in->make_private, err);
    else if (in->template_fd >= 0 && !needs_new_mount_points(in->extra_ro_binds))
        rc = build_from_template(p, in, err);
    else
        rc = build_whole(p, in, err);
    if (rc == 0 && p->failed) rc = jail_fail(err, "out of memory building the mount plan");
    if (rc < 0) {
        mount_plan_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int mount_plan_build(const struct mount_plan_input *in, struct mount_plan **out, struct jail_error *err)
{
    return build_plan(in, false, out, err);
}

int mount_plan_build_template(const char *root_mount, bool make_private, struct mount_plan **out,
                              struct jail_error *err)
{
    struct mount_plan_input in = {.root_mount = root_mount, .make_private = make_private, .template_fd = -1};
    return build_plan(&in, true, out, err);
}
