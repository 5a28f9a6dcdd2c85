/* A header the submission ships as a symbolic link to /etc/shadow (made by
 * the runner): it resolves inside the jail, where there is no /etc/shadow. */
#include "passwords.h"
int main(void) { return 0; }
