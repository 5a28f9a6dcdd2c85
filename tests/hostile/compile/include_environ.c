/* The jail's pid 1 is forked from the judge: its environment (the judge's,
 * with JUDGE_HOSTILE_SECRET) must not be readable (the init is not dumpable). */
#include "/proc/1/environ"
int main(void) { return 0; }
