/* monotonic.c - CLOCK_MONOTONIC in nanoseconds, and back to a timespec. */
#include "sandbox/jail_internal.h"

#include <time.h>

uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct timespec ns_to_timespec(uint64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};
    return ts;
}
