/*
 * test_sandbox_fs_safe.c - host-side file operations inside directories a bot
 * writes to: links planted by the bot are never followed, hard-linked files
 * never written through, deep trees removed, and the scratch directory (a
 * size-capped tmpfs as root) created, measured and removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "sandbox/fs_safe.h"
#include "sandbox/jail_internal.h"
#include "tests/unit/jail_fixture.h"

#define TMPFS_MAGIC 0x01021994

static char root[64];
static int root_fd;

static void make_root(void)
{
    snprintf(root, sizeof root, "/var/tmp/fs-safe-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
    struct jail_error err;
    root_fd = fs_safe_open_dir(root, &err);
    ck_assert_int_ge(root_fd, 0);
}

static void remove_root(void)
{
    struct jail_error err;
    close(root_fd);
    int parent = open("/var/tmp", O_RDONLY | O_DIRECTORY);
    ck_assert_msg(fs_safe_remove_tree(parent, root + strlen("/var/tmp/"), &err) == 0, "%s", err.msg);
    close(parent);
    ck_assert_int_eq(access(root, F_OK), -1);
}

/* A file outside the tree that the bot would like the judge to damage. */
static void make_victim(char *path, size_t cap)
{
    snprintf(path, cap, "%s-victim", root);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "precious", 8), 8);
    close(fd);
}

static void assert_victim_intact(const char *path)
{
    char buf[16] = "";
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(read(fd, buf, sizeof buf), 8);
    close(fd);
    ck_assert_str_eq(buf, "precious");
    unlink(path);
}

START_TEST(open_refuses_links_and_escapes)
{
    make_root();
    char victim[96];
    make_victim(victim, sizeof victim);
    ck_assert_int_eq(symlinkat(victim, root_fd, "link"), 0);
    ck_assert_int_eq(mkdirat(root_fd, "sub", 0755), 0);
    ck_assert_int_eq(symlinkat("/etc", root_fd, "sub/etc"), 0);
    struct jail_error err;
    ck_assert_int_eq(fs_safe_openat(root_fd, "link", O_WRONLY | O_TRUNC, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "open link:"));
    ck_assert_int_eq(fs_safe_openat(root_fd, "sub/etc/passwd", O_RDONLY, 0, &err), -1);
    ck_assert_int_eq(fs_safe_openat(root_fd, "../etc/passwd", O_RDONLY, 0, &err), -1);
    ck_assert_int_eq(fs_safe_openat(root_fd, "/etc/passwd", O_RDONLY, 0, &err), -1);
    int fd = fs_safe_openat(root_fd, "sub/new", O_WRONLY | O_CREAT | O_EXCL, 0600, &err);
    ck_assert_msg(fd >= 0, "%s", err.msg);
    close(fd);
    assert_victim_intact(victim);
    remove_root();
}
END_TEST

START_TEST(open_for_writing_refuses_hard_links)
{
    make_root();
    char victim[96];
    make_victim(victim, sizeof victim);
    char planted[128];
    snprintf(planted, sizeof planted, "%s/hard", root);
    ck_assert_int_eq(link(victim, planted), 0);
    struct jail_error err;
    ck_assert_int_eq(fs_safe_openat(root_fd, "hard", O_WRONLY, 0, &err), -1);
    ck_assert_str_eq(err.msg, "jail: open hard: refusing to write a file with 2 hard links");
    int fd = fs_safe_openat(root_fd, "hard", O_RDONLY, 0, &err); /* reading is harmless */
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(fs_safe_write_file(root_fd, "hard", "new", 3, 0644, &err), 0); /* replaces the name */
    assert_victim_intact(victim);
    remove_root();
}
END_TEST

START_TEST(write_file_replaces_atomically)
{
    make_root();
    char victim[96];
    make_victim(victim, sizeof victim);
    ck_assert_int_eq(symlinkat(victim, root_fd, "state"), 0);
    struct jail_error err;
    ck_assert_msg(fs_safe_write_file(root_fd, "state", "turn 1\n", 7, 0640, &err) == 0, "%s", err.msg);
    char buf[32];
    size_t len;
    ck_assert_int_eq(fs_safe_read_file(root_fd, "state", buf, sizeof buf, &len, &err), 0);
    ck_assert_uint_eq(len, 7);
    ck_assert_int_eq(memcmp(buf, "turn 1\n", 7), 0);
    struct stat st;
    ck_assert_int_eq(fstatat(root_fd, "state", &st, AT_SYMLINK_NOFOLLOW), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    ck_assert_int_eq(mkdirat(root_fd, "dir", 0755), 0);
    ck_assert_int_eq(fs_safe_write_file(root_fd, "dir/f", "x", 1, 0600, &err), 0);
    ck_assert_int_eq(fs_safe_write_file(root_fd, "missing/f", "x", 1, 0600, &err), -1);
    ck_assert_int_eq(fs_safe_write_file(root_fd, "dir/..", "x", 1, 0600, &err), -1);
    ck_assert_int_eq(fs_safe_read_file(root_fd, "dir", buf, sizeof buf, &len, &err), -1);
    ck_assert_str_eq(err.msg, "jail: read dir: not a regular file");
    assert_victim_intact(victim);
    remove_root();
}
END_TEST

START_TEST(mkdir_beneath_only)
{
    make_root();
    struct jail_error err;
    ck_assert_int_eq(fs_safe_mkdirat(root_fd, "a", 0700, &err), 0);
    ck_assert_int_eq(fs_safe_mkdirat(root_fd, "a/b", 0700, &err), 0);
    ck_assert_int_eq(symlinkat("/tmp", root_fd, "t"), 0);
    ck_assert_int_eq(fs_safe_mkdirat(root_fd, "t/escape", 0700, &err), -1);
    ck_assert_int_eq(access("/tmp/escape", F_OK), -1);
    ck_assert_int_eq(fs_safe_mkdirat(root_fd, "a", 0700, &err), -1);
    ck_assert_str_eq(err.msg, "jail: mkdir a: File exists");
    remove_root();
}
END_TEST

START_TEST(remove_never_follows_links)
{
    make_root();
    char victim[96];
    make_victim(victim, sizeof victim);
    char victim_dir[96];
    snprintf(victim_dir, sizeof victim_dir, "%s-vdir", root);
    ck_assert_int_eq(mkdir(victim_dir, 0755), 0);
    char keep[128];
    snprintf(keep, sizeof keep, "%s/keep", victim_dir);
    close(open(keep, O_WRONLY | O_CREAT, 0644));
    ck_assert_int_eq(symlinkat(victim, root_fd, "file-link"), 0);
    ck_assert_int_eq(symlinkat(victim_dir, root_fd, "dir-link"), 0);
    char planted[128];
    snprintf(planted, sizeof planted, "%s/hard", root);
    ck_assert_int_eq(link(victim, planted), 0);
    ck_assert_int_eq(mkdirat(root_fd, "d", 0755), 0);
    ck_assert_int_eq(symlinkat(victim_dir, root_fd, "d/inner-link"), 0);
    remove_root();
    assert_victim_intact(victim);
    ck_assert_int_eq(access(keep, F_OK), 0);
    unlink(keep);
    rmdir(victim_dir);
}
END_TEST

START_TEST(remove_handles_deep_trees)
{
    make_root();
    int fd = dup(root_fd);
    for (int depth = 0; depth < 300; depth++) {
        ck_assert_int_eq(mkdirat(fd, "d", 0755), 0);
        close(openat(fd, "f", O_WRONLY | O_CREAT, 0644));
        int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = next;
    }
    close(fd);
    struct jail_error err;
    uint64_t bytes;
    ck_assert_int_eq(fs_safe_usage(root_fd, &bytes, &err), -1); /* usage refuses past 256 levels */
    ck_assert_str_eq(err.msg, "jail: directory tree deeper than 256 levels");
    ck_assert_int_eq(fs_safe_clear_dir(root_fd, &err), 0);
    ck_assert_int_eq(fs_safe_usage(root_fd, &bytes, &err), 0);
    ck_assert_uint_eq(bytes, 0);
    remove_root();
}
END_TEST

START_TEST(usage_counts_blocks_without_following)
{
    make_root();
    static char block[8192];
    struct jail_error err;
    ck_assert_int_eq(fs_safe_write_file(root_fd, "a", block, sizeof block, 0644, &err), 0);
    ck_assert_int_eq(symlinkat("/usr", root_fd, "usr-link"), 0);
    uint64_t bytes;
    ck_assert_int_eq(fs_safe_usage(root_fd, &bytes, &err), 0);
    ck_assert_uint_ge(bytes, sizeof block);
    ck_assert_uint_lt(bytes, 64 * 1024);
    remove_root();
}
END_TEST

/* A sparse file holds no block but is its whole length wherever it is copied. */
START_TEST(usage_counts_a_sparse_file_by_its_length)
{
    make_root();
    struct jail_error err;
    int fd = openat(root_fd, "sparse", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 64 << 20), 0);
    close(fd);
    uint64_t bytes;
    ck_assert_int_eq(fs_safe_usage(root_fd, &bytes, &err), 0);
    ck_assert_uint_ge(bytes, 64u << 20);
    remove_root();
}
END_TEST

START_TEST(chown_tree_changes_links_not_targets)
{
    make_root();
    char victim[96];
    make_victim(victim, sizeof victim);
    ck_assert_int_eq(symlinkat(victim, root_fd, "link"), 0);
    ck_assert_int_eq(mkdirat(root_fd, "d", 0755), 0);
    struct jail_error err;
    ck_assert_int_eq(fs_safe_write_file(root_fd, "d/f", "x", 1, 0644, &err), 0);
    ck_assert_int_eq(fs_safe_chown_tree(root_fd, 4242, 4343, &err), 0);
    struct stat st;
    ck_assert_int_eq(fstatat(root_fd, "d/f", &st, AT_SYMLINK_NOFOLLOW), 0);
    ck_assert_uint_eq(st.st_uid, 4242);
    ck_assert_uint_eq(st.st_gid, 4343);
    ck_assert_int_eq(fstatat(root_fd, "link", &st, AT_SYMLINK_NOFOLLOW), 0);
    ck_assert_uint_eq(st.st_uid, 4242);
    ck_assert_int_eq(stat(victim, &st), 0);
    ck_assert_uint_eq(st.st_uid, 0);
    assert_victim_intact(victim);
    remove_root();
}
END_TEST

START_TEST(scratch_is_a_capped_tmpfs_of_its_owner)
{
    fixture_init();
    struct jail_identity *id;
    struct jail_error err;
    ck_assert_int_eq(jail_identity_acquire(&id, &err), 0);
    char path[64];
    snprintf(path, sizeof path, "/var/tmp/scratch-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(path));
    bool degraded = true;
    ck_assert_msg(jail_scratch_create(path, 1 << 20, id, &degraded, &err) == 0, "%s", err.msg);
    ck_assert(!degraded);
    struct statfs fs;
    ck_assert_int_eq(statfs(path, &fs), 0);
    ck_assert_int_eq(fs.f_type, TMPFS_MAGIC);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_uid, id->host_uid);
    ck_assert_int_eq(st.st_mode & 07777, 0700);

    struct command c;
    shell_command(&c, "echo kept > /data/a; head -c 3000000 /dev/zero > /data/big 2>/dev/null || echo full;"
                      "ln -s /etc/passwd /data/link; cat /data/a");
    c.spec.rw_dir = path;
    c.spec.identity = id;
    struct outcome o;
    run_ok(&c, &o);
    ck_assert_str_eq(o.out, "full\nkept\n");
    uint64_t used;
    ck_assert_int_eq(jail_scratch_usage(path, &used, &err), 0);
    ck_assert_uint_ge(used, 900 * 1024);
    ck_assert_uint_le(used, 1 << 20);

    ck_assert_int_eq(jail_scratch_remove(path, &err), 0);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(access("/etc/passwd", F_OK), 0);
    jail_identity_release(id);
}
END_TEST

START_TEST(scratch_rejects_bad_input)
{
    fixture_init();
    struct jail_identity *id;
    struct jail_error err;
    ck_assert_int_eq(jail_identity_acquire(&id, &err), 0);
    bool degraded;
    ck_assert_int_eq(jail_scratch_create("/var/tmp/x", 0, id, &degraded, &err), -1);
    ck_assert_str_eq(err.msg, "jail: scratch /var/tmp/x: size must be above 0");
    ck_assert_int_eq(jail_scratch_create(NULL, 10, id, &degraded, &err), -1);
    make_root();
    ck_assert_int_eq(mkdirat(root_fd, "sub", 0755), 0);
    ck_assert_int_eq(jail_scratch_create(root, 10, id, &degraded, &err), -1);
    char expected[128];
    snprintf(expected, sizeof expected, "jail: scratch %s: directory is not empty", root);
    ck_assert_str_eq(err.msg, expected);
    remove_root();
    ck_assert_int_eq(jail_scratch_remove("/nonexistent-scratch", &err), -1);
    ck_assert_str_eq(err.msg, "jail: scratch /nonexistent-scratch: No such file or directory");
    ck_assert_int_eq(jail_scratch_usage("/etc/passwd", &(uint64_t){0}, &err), -1);
    ck_assert_str_eq(err.msg, "jail: scratch /etc/passwd: not a directory");
    jail_identity_release(id);
}
END_TEST

int main(void)
{
    TCase *tc = tcase_create("fs_safe");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, open_refuses_links_and_escapes);
    tcase_add_test(tc, open_for_writing_refuses_hard_links);
    tcase_add_test(tc, write_file_replaces_atomically);
    tcase_add_test(tc, mkdir_beneath_only);
    tcase_add_test(tc, remove_never_follows_links);
    tcase_add_test(tc, remove_handles_deep_trees);
    tcase_add_test(tc, usage_counts_blocks_without_following);
    tcase_add_test(tc, usage_counts_a_sparse_file_by_its_length);
    tcase_add_test(tc, chown_tree_changes_links_not_targets);
    tcase_add_test(tc, scratch_is_a_capped_tmpfs_of_its_owner);
    tcase_add_test(tc, scratch_rejects_bad_input);
    return run_suite(single_case_suite("sandbox_fs_safe", tc));
}
