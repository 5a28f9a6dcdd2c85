/* gen_alloc.c - a generals bot that allocates and touches 1 GiB at its 3rd reply (memory limit). */
#include <string.h>
#include <unistd.h>

#include "gen_bot.h"

#define CHUNK_BYTES ((size_t)64 << 20)
#define TOTAL_BYTES ((size_t)1 << 30)

static void misbehave(void)
{
    long page = sysconf(_SC_PAGESIZE);
    for (size_t done = 0; done < TOTAL_BYTES; done += CHUNK_BYTES) {
        volatile char *chunk = malloc(CHUNK_BYTES);
        if (!chunk)
            abort();  /* an address-space rlimit said no before any memory limit did */
        for (size_t at = 0; at < CHUNK_BYTES; at += (size_t)page)
            chunk[at] = 1;
    }
    gen_reply("-1");
}

int main(void)
{
    return gen_play(misbehave);
}
