/* The compiler reads its standard input: empty and closed in the jail, and no /dev/stdin there. */
#include "/dev/stdin"
int main(void) { return 0; }
