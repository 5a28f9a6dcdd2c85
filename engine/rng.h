/* rng.h - the seeded random streams of games/README.md C6 (SplitMix64 per label). */
#ifndef ENGINE_RNG_H
#define ENGINE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng { uint64_t state; };

uint64_t fnv1a64(const char *label);
struct rng rng_stream(uint64_t seed, const char *label);
uint64_t rng_next(struct rng *r);
uint64_t rng_uniform(struct rng *r, uint64_t n);          /* n >= 1 */
int64_t rng_range(struct rng *r, int64_t lo, int64_t hi);  /* both ends included */
void rng_shuffle_int(struct rng *r, int *a, size_t len);
void rng_shuffle_size(struct rng *r, size_t *a, size_t len);

#endif
