/* keyset.c - an open-addressing set of 128-bit keys (keyset.h). */
#include "ci/keyset.h"

#include <stdbool.h>
#include <stdlib.h>

#define FNV_PRIME 0x100000001b3ull

void key128_add(struct key128 *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * FNV_PRIME;
        h->b = (h->b ^ (uint64_t)(p[i] ^ 0x5a)) * FNV_PRIME;
        h->b ^= h->b >> 29; /* keeps the second stream from tracking the first */
    }
}

void key128_add_u64(struct key128 *h, uint64_t v)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(v >> (8 * i));
    key128_add(h, bytes, sizeof bytes);
}

static uint64_t mix64(uint64_t z) /* SplitMix64's finaliser */
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct key128 key128_finish(struct key128 h)
{
    return (struct key128){mix64(h.a), mix64(h.b ^ h.a)};
}

struct slot {
    struct key128 key;
    uint64_t value;
    bool used;
};

struct keyset {
    struct slot *slots;
    size_t cap, size; /* cap is a power of two */
};

struct keyset *keyset_new(void)
{
    return calloc(1, sizeof(struct keyset));
}

void keyset_free(struct keyset *ks)
{
    if (ks)
        free(ks->slots);
    free(ks);
}

static struct slot *find(struct slot *slots, size_t cap, struct key128 key)
{
    size_t i = (size_t)key.a & (cap - 1);
    while (slots[i].used && (slots[i].key.a != key.a || slots[i].key.b != key.b))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static int grow(struct keyset *ks)
{
    size_t cap = ks->cap ? ks->cap * 2 : 1024;
    struct slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < ks->cap; i++)
        if (ks->slots[i].used)
            *find(slots, cap, ks->slots[i].key) = ks->slots[i];
    free(ks->slots);
    ks->slots = slots;
    ks->cap = cap;
    return 0;
}

int keyset_add(struct keyset *ks, struct key128 key, uint64_t value, uint64_t *existing)
{
    if ((ks->size + 1) * 4 > ks->cap * 3 && grow(ks) < 0)
        return -1;
    struct slot *s = find(ks->slots, ks->cap, key);
    if (s->used) {
        if (existing)
            *existing = s->value;
        return 0;
    }
    *s = (struct slot){key, value, true};
    ks->size++;
    return 1;
}

int keyset_get(const struct keyset *ks, struct key128 key, uint64_t *value)
{
    if (!ks->cap)
        return 0;
    const struct slot *s = find(ks->slots, ks->cap, key);
    if (!s->used)
        return 0;
    *value = s->value;
    return 1;
}
