/*
 * mount_plan.h - the steps a jail's filesystem is made of: mount_root.c
 * decides which, mount_plan.c records them (paths and failure messages
 * prepared in the parent) and walks them in the child. Private to the
 * mount_*.c files.
 */
#ifndef SANDBOX_MOUNT_PLAN_H
#define SANDBOX_MOUNT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandbox/jail_internal.h"

enum step_kind {
    STEP_MAKE_PRIVATE,
    STEP_TMPFS,
    STEP_MKDIR,
    STEP_MKFILE,
    STEP_WRITE_FILE,
    STEP_SYMLINK,
    STEP_BIND,
    STEP_PROC,
    STEP_PIVOT,
    STEP_ROOT_READONLY,
    STEP_CHDIR,
    STEP_ENTER_TEMPLATE,
    STEP_ATTACH_TREE,
    STEP_COPY_IN
};

struct mount_step {
    enum step_kind kind;
    char *target;        /* prefixed by the plan's root until the pivot */
    char *source;        /* bind source, symlink target or tmpfs options */
    char *what;          /* message on failure: "bind /usr on /usr" */
    unsigned long flags; /* mount(2) flags */
    uint64_t attr;       /* MOUNT_ATTR_* set recursively after a bind */
    mode_t mode;
    int fd; /* template namespace (borrowed), detached tree or directory to copy (owned) */
    bool fd_owned;
};

struct mount_plan {
    struct mount_step *steps;
    size_t n, cap;
    const char *root;   /* borrowed: where the new root is mounted, "" in a template copy */
    bool failed;        /* out of memory while building: reported once, at the end */
    bool from_template; /* no CLONE_NEWNS: the child enters the template instead */
};

/* Paths are as the jail sees them ("/usr"); each adder records its own message. */
void plan_make_private(struct mount_plan *p);
void plan_tmpfs(struct mount_plan *p, const char *jail_path, uint64_t bytes_or_0, const char *mode);
void plan_mkdir(struct mount_plan *p, const char *jail_path, mode_t mode);
void plan_mkfile(struct mount_plan *p, const char *jail_path);
/* A read-only file of the jail's own holding `text` (in the root tmpfs). */
void plan_write_file(struct mount_plan *p, const char *jail_path, const char *text);
/* The jail's own /etc files (jail_etc.c); /etc must exist in the plan. */
void plan_jail_etc(struct mount_plan *p);
void plan_symlink(struct mount_plan *p, const char *jail_path, const char *target);
void plan_bind(struct mount_plan *p, const char *host, const char *jail_path, uint64_t attr);
void plan_proc(struct mount_plan *p, const char *jail_path);
/* pivot_root into the plan's root, make it read-only, chdir to workdir. */
void plan_pivot(struct mount_plan *p, const char *workdir);
void plan_chdir(struct mount_plan *p, const char *workdir);
void plan_enter_template(struct mount_plan *p, int template_fd);
/* A detached copy of host_dir's mounts with attr on all of them, moved to jail_path by the child. */
int plan_attach(struct mount_plan *p, const char *host_dir, const char *jail_path, uint64_t attr,
                struct jail_error *err);
/* The same with a detached tree the caller made (plan owns tree_fd from now on). */
int plan_attach_tree(struct mount_plan *p, int tree_fd, const char *what, const char *jail_path, uint64_t attr,
                     struct jail_error *err);
/* A tmpfs of the jail's own (of that size and inode count) on jail_path holding a
 * copy of the directory dir_fd (plan owns it from now on), made by the child and
 * read-only: mount_copy.c. */
void plan_copy_in(struct mount_plan *p, int dir_fd, const char *what, const char *jail_path, uint64_t tmpfs_bytes,
                  uint64_t tmpfs_inodes);
/* The step that creates jail_path (not a bind onto it), or NULL. */
const struct mount_step *plan_created_at(const struct mount_plan *p, const char *jail_path);

/* Child side of plan_copy_in (mount_copy.c). */
int mount_copy_in(const struct mount_step *s);

#endif
