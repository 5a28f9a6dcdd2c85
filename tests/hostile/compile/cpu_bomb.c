/* A CPU bomb that needs no memory: the file includes itself twice at every
 * level, 2^30 inclusions, and says nothing. */
#if __INCLUDE_LEVEL__ < 30
#include __FILE__
#include __FILE__
#endif
#if __INCLUDE_LEVEL__ == 0
int main(void) { return 0; }
#endif
