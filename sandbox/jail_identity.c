/*
 * jail_identity.c - unique host uids for jailed processes. As root, slot N
 * is host uid/gid JAIL_UID_BASE+N, held by flock on <runtime>/uid-slots/N so
 * that no two jails on the machine (in any judge process) ever share one; a
 * lock dies with its process, so a crashed judge frees its slots. Not root,
 * only our own uid can be mapped: every identity is that uid, and the
 * isolation report says so.
 */
#include "sandbox/jail_flat.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLOT_DIR "uid-slots"

/* Slot -> cached user namespace fd + 1 (0: none yet). Kept for the life of the
 * process: recreating a namespace per jail would cost a process each time.
 * cached_slots lists those slots in order (append-only, count published last). */
static int userns_by_slot[JAIL_UID_SLOTS];
static int cached_slots[JAIL_UID_SLOTS];
static int cached_count;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned next_probe;

static int open_slot_dir(const struct jail_global *g, struct jail_error *err)
{
    int base = open(g->runtime_dir, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (base < 0) return jail_fail_errno(err, errno, "open %s", g->runtime_dir);
    if (mkdirat(base, SLOT_DIR, 0700) < 0 && errno != EEXIST) {
        jail_fail_errno(err, errno, "mkdir %s/%s", g->runtime_dir, SLOT_DIR);
        close(base);
        return -1;
    }
    int dir = openat(base, SLOT_DIR, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int saved = errno;
    close(base);
    if (dir < 0) return jail_fail_errno(err, saved, "open %s/%s", g->runtime_dir, SLOT_DIR);
    return dir;
}

/* The directory of slot lock files, opened once and kept. */
static int slot_dir(const struct jail_global *g, struct jail_error *err)
{
    static int dir = -1;
    pthread_mutex_lock(&cache_lock);
    if (dir < 0) dir = open_slot_dir(g, err);
    int fd = dir;
    pthread_mutex_unlock(&cache_lock);
    return fd;
}

/* The lock fd of a free slot we now hold, -1 if it is taken, -2 on error. */
static int try_slot(int dir, int slot, struct jail_error *err)
{
    char name[16];
    snprintf(name, sizeof name, "%d", slot);
    int fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        jail_fail_errno(err, errno, "open uid slot lock %s", name);
        return -2;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
    int saved = errno;
    close(fd);
    if (saved == EWOULDBLOCK) return -1;
    jail_fail_errno(err, saved, "flock uid slot %s", name);
    return -2;
}

static void take_slot(struct jail_identity *id, int slot, int fd)
{
    id->slot = slot;
    id->lock_fd = fd;
    id->host_uid = (uid_t)(JAIL_UID_BASE + (unsigned)slot);
    id->host_gid = (gid_t)(JAIL_UID_BASE + (unsigned)slot);
}

/* Where a process starts its n-th look for a free slot: differs per process so parallel
 * judges rarely collide. */
static unsigned slot_start_at(unsigned n)
{
    return ((unsigned)getpid() * 7919u + n) % JAIL_UID_SLOTS;
}

static unsigned slot_start(void)
{
    return slot_start_at(__atomic_fetch_add(&next_probe, 1, __ATOMIC_RELAXED));
}

int jail_identity_first_slot(void)
{
    return (int)slot_start_at(__atomic_load_n(&next_probe, __ATOMIC_RELAXED));
}

static void cache_userns(int slot, int fd)
{
    __atomic_store_n(&userns_by_slot[slot], fd + 1, __ATOMIC_RELEASE);
    cached_slots[cached_count] = slot;
    __atomic_store_n(&cached_count, cached_count + 1, __ATOMIC_RELEASE);
}

void jail_identity_keep_userns(int slot, int fd)
{
    pthread_mutex_lock(&cache_lock);
    if (slot >= 0 && slot < JAIL_UID_SLOTS && !userns_by_slot[slot])
        cache_userns(slot, fd);
    else
        close(fd);
    pthread_mutex_unlock(&cache_lock);
}

/* Slots with a cached namespace first (cheapest to reuse), then the rest from
 * slot_start. Returns the lock fd, -1 when every slot is taken, -2 on error. */
static int first_free_slot(int dir, int *slot, struct jail_error *err)
{
    int ncached = __atomic_load_n(&cached_count, __ATOMIC_ACQUIRE);
    for (int k = 0; k < ncached; k++) {
        *slot = cached_slots[k];
        int fd = try_slot(dir, *slot, err);
        if (fd != -1) return fd;
    }
    unsigned start = slot_start();
    for (unsigned i = 0; i < JAIL_UID_SLOTS; i++) {
        *slot = (int)((start + i) % JAIL_UID_SLOTS);
        if (__atomic_load_n(&userns_by_slot[*slot], __ATOMIC_ACQUIRE)) continue; /* tried above */
        int fd = try_slot(dir, *slot, err);
        if (fd != -1) return fd;
    }
    return -1;
}

static int acquire_slot(const struct jail_global *g, struct jail_identity *id, struct jail_error *err)
{
    int dir = slot_dir(g, err);
    if (dir < 0) return -1;
    int slot;
    int fd = first_free_slot(dir, &slot, err);
    if (fd == -2) return -1;
    if (fd == -1)
        return jail_fail(err, "no free uid slot among %d (too many jails at once?)", JAIL_UID_SLOTS);
    take_slot(id, slot, fd);
    return 0;
}

int jail_identity_acquire(struct jail_identity **out, struct jail_error *err)
{
    const struct jail_global *g;
    if (jail_global_ensure(&g, err) < 0) return -1;
    struct jail_identity *id = calloc(1, sizeof *id);
    if (!id) return jail_fail(err, "out of memory");
    id->slot = -1;
    id->lock_fd = -1;
    id->host_uid = getuid();
    id->host_gid = getgid();
    if ((g->privileged || g->flat_setid) && acquire_slot(g, id, err) < 0) {
        free(id);
        return -1;
    }
    *out = id;
    return 0;
}

void jail_identity_release(struct jail_identity *id)
{
    if (!id) return;
    uid_sweep_released(id);
    if (id->lock_fd >= 0) close(id->lock_fd);
    free(id);
}

int jail_identity_userns(const struct jail_identity *id, int *fd, struct jail_error *err)
{
    if (id->slot < 0) return jail_fail(err, "identity without a uid slot has no user namespace of its own");
    pthread_mutex_lock(&cache_lock);
    int rc = 0;
    if (!userns_by_slot[id->slot]) {
        struct id_map map = {JAIL_INNER_UID, id->host_uid, JAIL_INNER_GID, id->host_gid};
        int made;
        rc = ns_user_create(&map, false, &made, err);
        if (rc == 0) cache_userns(id->slot, made);
    }
    *fd = userns_by_slot[id->slot] - 1;
    pthread_mutex_unlock(&cache_lock);
    return rc;
}
