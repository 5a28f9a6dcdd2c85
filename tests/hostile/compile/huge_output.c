/* A huge output file: 1 GiB of initialised data makes a 1 GiB object and program. */
char big[1 << 30] = {1};
int main(void) { return big[12345]; }
