/* prefetch.c - read input files on worker threads, hand them back in order (prefetch.h). */
#include "ci/prefetch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_BUSY, SLOT_DONE };

struct slot {
    enum slot_state state;
    char *path;
    struct loaded_file lf;
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
static void read_next(struct prefetch *p)
{
    uint64_t seq = p->taken++;
    struct slot *s = &p->slots[seq % PREFETCH_SLOTS];
    s->state = SLOT_BUSY;
    pthread_mutex_unlock(&p->mu);
    struct loaded_file lf;
    read_one(p, &lf, s->path, seq);
    pthread_mutex_lock(&p->mu);
    s->lf = lf;
    s->state = SLOT_DONE;
    pthread_cond_broadcast(&p->done);
}

static void *worker(void *arg)
{
    struct prefetch *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->taken == p->tail)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        read_next(p);
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
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0)
            break; /* fewer workers, or none: files are then read here */
        p->n_threads++;
    }
    *out = p;
    return 0;
}

static int hand_back(struct prefetch *p, struct loaded_file *lf, struct ci_error *err)
{
    int rc = p->fn(p->ctx, lf, err);
    loaded_file_free(lf);
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
            read_next(p);
        else
            pthread_cond_wait(&p->done, &p->mu);
    }
    struct loaded_file lf = s->lf;
    free(s->path);
    memset(s, 0, sizeof *s);
    p->head++;
    pthread_mutex_unlock(&p->mu);
    return hand_back(p, &lf, err);
}

int prefetch_submit(struct prefetch *p, const char *path, struct ci_error *err)
{
    if (!p->n_threads) {
        struct loaded_file lf;
        read_one(p, &lf, path, p->tail++);
        p->head = p->tail;
        return hand_back(p, &lf, err);
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
