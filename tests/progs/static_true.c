/* static_true.c - exits 0 at once; built statically so spawn benchmarks time only the spawn. */
int main(void) { return 0; }
