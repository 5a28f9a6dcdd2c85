/* inflate_whole.c - one gzip member inflated at once (inflate_whole.h). */
#include "replay/inflate_whole.h"

#include <libdeflate.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define GZIP_MIN_SIZE 18 /* a 10-byte header, an empty deflate block, the 8-byte trailer */

/* The trailer's ISIZE: the inflated size modulo 2^32, as the writer claims it. */
static uint32_t claimed_size(const unsigned char *gz, size_t len)
{
    const unsigned char *t = gz + len - 4;
    return (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
}

int inflate_whole(const unsigned char *gz, size_t len, size_t max, char **out, size_t *out_len)
{
    size_t size = len < GZIP_MIN_SIZE ? SIZE_MAX : claimed_size(gz, len);
    if (size > max)
        return 0;
    char *bytes = malloc(size ? size : 1);
    struct libdeflate_decompressor *d = bytes ? libdeflate_alloc_decompressor() : NULL;
    size_t used = 0, made = 0;
    /* libdeflate checks the CRC-32 and that the size is the trailer's. */
    bool whole = d &&
                 libdeflate_gzip_decompress_ex(d, gz, len, bytes, size, &used, &made) == LIBDEFLATE_SUCCESS &&
                 used == len && made == size;
    libdeflate_free_decompressor(d);
    if (!whole) {
        free(bytes);
        return 0;
    }
    *out = bytes;
    *out_len = made;
    return 1;
}
