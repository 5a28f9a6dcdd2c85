/* prefetch.c - read input files on worker threads, hand them back in order (prefetch.h). */
#include "ci/prefetch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A sleeping worker is woken when this many files wait: a wake-up per file cost more than
 * reading one on this thread (which reads whatever waits when it needs the oldest). */
#define WAKE_BATCH 4
#define CALLER (-1) /* the reader of a file read on the calling thread */

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_BUSY, SLOT_DONE };

struct slot {
    enum slot_state state;
    int reader; /* the worker that read it, or CALLER */
    char *path;
    struct loaded_file lf;
};

/* Files handed back, to be freed by the worker that read them: malloc frees a block fastest
 * on the thread that took it (glibc's arena of that thread). */
struct returned {
    struct loaded_file files[PREFETCH_SLOTS];
    size_t n;
};

struct worker {
    struct prefetch *p;
    int index;
};

struct prefetch {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    struct slot slots[PREFETCH_SLOTS];
    uint64_t head;  /* the oldest file not yet handed back */
    uint64_t taken; /* the next file a worker takes */
    uint64_t tail;  /* the next file submitted */
    bool stop;
    pthread_t threads[PREFETCH_MAX_WORKERS];
    struct worker workers[PREFETCH_MAX_WORKERS];
    struct returned returned[PREFETCH_MAX_WORKERS];
    int n_threads;
    prefetch_fn fn;
    prefetch_prepare_fn prepare;
    void *ctx;
};

static void read_one(struct prefetch *p, struct loaded_file *lf, const char *path, uint64_t seq)
{
    loaded_file_read(lf, path);
    lf->seq = seq;
    if (p->prepare)
        p->prepare(p->ctx, lf);
}

/* With mu held: the next queued file, read with mu released. */
static void read_next(struct prefetch *p, int reader)
{
    uint64_t seq = p->taken++;
    struct slot *s = &p->slots[seq % PREFETCH_SLOTS];
    s->state = SLOT_BUSY;
    s->reader = reader;
    pthread_mutex_unlock(&p->mu);
    struct loaded_file lf;
    read_one(p, &lf, s->path, seq);
    pthread_mutex_lock(&p->mu);
    s->lf = lf;
    s->state = SLOT_DONE;
    pthread_cond_broadcast(&p->done);
}

/* With mu held: frees, with mu released, the files handed back that worker `index` read. */
static void free_returned(struct prefetch *p, int index)
{
    struct returned *r = &p->returned[index];
    size_t n = r->n;
    if (!n)
        return;
    struct loaded_file files[PREFETCH_SLOTS];
    memcpy(files, r->files, n * sizeof *files);
    r->n = 0;
    pthread_mutex_unlock(&p->mu);
    for (size_t i = 0; i < n; i++)
        loaded_file_free(&files[i]);
    pthread_mutex_lock(&p->mu);
}

static void *worker(void *arg)
{
    struct worker *w = arg;
    struct prefetch *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        free_returned(p, w->index);
        while (!p->stop && p->taken == p->tail)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        read_next(p, w->index);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int prefetch_default_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN) - 1; /* the calling thread reads too */
    return n <= 0 ? 0 : n > PREFETCH_MAX_WORKERS ? PREFETCH_MAX_WORKERS : (int)n;
}

int prefetch_start(struct prefetch **out, int workers, prefetch_fn fn, prefetch_prepare_fn prepare, void *ctx,
                   struct ci_error *err)
{
    struct prefetch *p = calloc(1, sizeof *p);
    if (!p)
        return ci_fail_oom(err);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->fn = fn;
    p->prepare = prepare;
    p->ctx = ctx;
    for (int i = 0; i < workers && i < PREFETCH_MAX_WORKERS; i++) {
        p->workers[i] = (struct worker){p, i};
        if (pthread_create(&p->threads[i], NULL, worker, &p->workers[i]) != 0)
            break; /* fewer workers, or none: files are then read here */
        p->n_threads++;
    }
    *out = p;
    return 0;
}

/* The file to its reader for freeing, or freed here. */
static void release(struct prefetch *p, struct loaded_file *lf, int reader)
{
    if (reader != CALLER) {
        pthread_mutex_lock(&p->mu);
        struct returned *r = &p->returned[reader];
        bool kept = r->n < PREFETCH_SLOTS;
        if (kept)
            r->files[r->n++] = *lf;
        pthread_mutex_unlock(&p->mu);
        if (kept)
            return;
    }
    loaded_file_free(lf);
}

static int hand_back(struct prefetch *p, struct loaded_file *lf, int reader, struct ci_error *err)
{
    int rc = p->fn(p->ctx, lf, err);
    release(p, lf, reader);
    return rc;
}

/* Hands back the oldest file in flight; until a worker has read it, reads queued files here
 * rather than sleep (a thread fewer to wake per file, and one CPU's worth more reading). */
static int hand_back_oldest(struct prefetch *p, struct ci_error *err)
{
    pthread_mutex_lock(&p->mu);
    struct slot *s = &p->slots[p->head % PREFETCH_SLOTS];
    while (s->state != SLOT_DONE) {
        if (p->taken < p->tail)
            read_next(p, CALLER);
        else
            pthread_cond_wait(&p->done, &p->mu);
    }
    struct loaded_file lf = s->lf;
    int reader = s->reader;
    free(s->path);
    memset(s, 0, sizeof *s);
    p->head++;
    pthread_mutex_unlock(&p->mu);
    return hand_back(p, &lf, reader, err);
}

int prefetch_submit(struct prefetch *p, const char *path, struct ci_error *err)
{
    if (!p->n_threads) {
        struct loaded_file lf;
        read_one(p, &lf, path, p->tail++);
        p->head = p->tail;
        return hand_back(p, &lf, CALLER, err);
    }
    if (p->tail - p->head == PREFETCH_SLOTS && hand_back_oldest(p, err) < 0)
        return -1;
    char *copy = strdup(path);
    if (!copy)
        return ci_fail_oom(err);
    pthread_mutex_lock(&p->mu);
    struct slot *s = &p->slots[p->tail++ % PREFETCH_SLOTS];
    s->path = copy;
    s->state = SLOT_QUEUED;
    if (p->tail - p->taken >= WAKE_BATCH)
        pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

static void stop_workers(struct prefetch *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n_threads; i++)
        pthread_join(p->threads[i], NULL);
    p->n_threads = 0;
}

void prefetch_abort(struct prefetch *p)
{
    if (!p)
        return;
    stop_workers(p); /* a worker finishes the file it holds before it sees stop */
    for (size_t i = 0; i < PREFETCH_SLOTS; i++) {
        loaded_file_free(&p->slots[i].lf);
        free(p->slots[i].path);
    }
    for (size_t w = 0; w < PREFETCH_MAX_WORKERS; w++)
        for (size_t i = 0; i < p->returned[w].n; i++)
            loaded_file_free(&p->returned[w].files[i]);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p);
}

int prefetch_finish(struct prefetch *p, struct ci_error *err)
{
    int rc = 0;
    while (rc == 0 && p->head < p->tail)
        rc = hand_back_oldest(p, err);
    prefetch_abort(p);
    return rc;
}
