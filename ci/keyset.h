/*
 * keyset.h - a set of 128-bit keys, each with a 64-bit value: the matches
 * already counted (value: where the first copy's path is kept) and the re-run
 * files already written. 32 bytes a key.
 */
#ifndef CI_KEYSET_H
#define CI_KEYSET_H

#include <stddef.h>
#include <stdint.h>

struct key128 {
    uint64_t a, b;
};

/* A 128-bit hash of bytes, continued from h (start from KEY128_INIT): two
 * independent 64-bit FNV-1a streams, finished by key128_finish. */
#define KEY128_INIT ((struct key128){0xcbf29ce484222325ull, 0x84222325cbf29ce4ull})
void key128_add(struct key128 *h, const void *data, size_t len);
void key128_add_u64(struct key128 *h, uint64_t v);
struct key128 key128_finish(struct key128 h);

struct keyset;
struct keyset *keyset_new(void);
void keyset_free(struct keyset *ks);
/* 1: added; 0: already there (*existing = its value); -1: out of memory. */
int keyset_add(struct keyset *ks, struct key128 key, uint64_t value, uint64_t *existing);
/* 1 with *value when key is there, else 0. */
int keyset_get(const struct keyset *ks, struct key128 key, uint64_t *value);

#endif
