/* Another submission's file by its absolute host path (@OTHER@ is replaced by
 * the runner): not in the jail, and its text must not appear in the messages. */
#include "@OTHER@"
int main(void) { return 0; }
