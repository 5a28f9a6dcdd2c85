/* A message flood: the file includes itself twice at every level, 2^30
 * inclusions, and every one warns: far more text than the messages may hold
 * (-fmax-errors counts errors, not warnings). */
#warning flood flood flood flood flood flood flood flood flood flood flood flood
#if __INCLUDE_LEVEL__ < 30
#include __FILE__
#include __FILE__
#endif
#if __INCLUDE_LEVEL__ == 0
int main(void) { return 0; }
#endif
