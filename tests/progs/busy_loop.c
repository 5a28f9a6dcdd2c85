/* busy_loop.c - burns CPU until killed (benchmarks and limit tests). */
int main(void)
{
    volatile unsigned long x = 0;
    for (;;) x++;
}
