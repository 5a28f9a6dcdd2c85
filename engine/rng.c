/* rng.c - the seeded random streams of games/README.md C6. */
#include "engine/rng.h"

uint64_t fnv1a64(const char *label)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)label; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return h;
}

struct rng rng_stream(uint64_t seed, const char *label)
{
    return (struct rng){seed ^ fnv1a64(label)};
}

uint64_t rng_next(struct rng *r)
{
    r->state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = r->state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* n = 0 is outside the contract; it yields 0 without a draw instead of dividing by zero. */
uint64_t rng_uniform(struct rng *r, uint64_t n)
{
    if (n == 0)
        return 0;
    uint64_t threshold = (0 - n) % n; /* (2^64 - n) mod n */
    uint64_t x;
    do
        x = rng_next(r);
    while (x < threshold);
    return x % n;
}

/* The span is computed modulo 2^64; a span of 0 means the whole 64-bit range. */
int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    uint64_t offset = span ? rng_uniform(r, span) : rng_next(r);
    return (int64_t)((uint64_t)lo + offset);
}

void rng_shuffle_int(struct rng *r, int *a, size_t len)
{
    for (size_t i = len; i-- > 1;) {
        size_t j = (size_t)rng_uniform(r, i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void rng_shuffle_size(struct rng *r, size_t *a, size_t len)
{
    for (size_t i = len; i-- > 1;) {
        size_t j = (size_t)rng_uniform(r, i + 1);
        size_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
