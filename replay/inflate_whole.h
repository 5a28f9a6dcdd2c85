/*
 * inflate_whole.h - a gzip file held in memory inflated in one call by libdeflate
 * (about twice zlib's speed, its CRC-32 too), when it is a single member whose
 * trailer promises at most a given size. Anything else (several members, bytes
 * after the member, a corrupt stream or a trailer that lies) is left to zlib's
 * stream, which says at which line a replay is cut or corrupt.
 */
#ifndef REPLAY_INFLATE_WHOLE_H
#define REPLAY_INFLATE_WHOLE_H

#include <stddef.h>

/* 1: *out (malloc'ed, the caller frees) holds the *out_len bytes of gz; 0: not taken, nothing to free. */
int inflate_whole(const unsigned char *gz, size_t len, size_t max, char **out, size_t *out_len);

#endif
