/* An endless file: the preprocessor reads zeros until a limit stops it. */
#include "/dev/zero"
int main(void) { return 0; }
