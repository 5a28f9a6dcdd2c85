/* bench_common.h - timing and statistics shared by the benchmarks (figures printed, never asserted). */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct bench_stats { double median_us, p10_us, p90_us, p99_us, min_us, max_us; size_t n; };

/* Sorts samples (ns) in place and summarises them in microseconds. */
static inline struct bench_stats bench_summarise(uint64_t *ns, size_t n)
{
    struct bench_stats s = {0};
    if (n == 0) return s;
    qsort(ns, n, sizeof *ns, bench_cmp_u64);
    s.n = n;
    s.min_us = ns[0] / 1e3;
    s.max_us = ns[n - 1] / 1e3;
    s.median_us = ns[n / 2] / 1e3;
    s.p10_us = ns[n / 10] / 1e3;
    s.p90_us = ns[n * 9 / 10] / 1e3;
    s.p99_us = ns[n * 99 / 100] / 1e3;
    return s;
}

static inline void bench_print(const char *name, struct bench_stats s)
{
    printf("  %-34s n=%-5zu median %9.1f us   p10 %9.1f   p90 %9.1f   p99 %9.1f\n", name, s.n, s.median_us,
           s.p10_us, s.p90_us, s.p99_us);
}

#endif
