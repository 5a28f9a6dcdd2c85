/* hostname: the jail has its own UTS namespace, named "jail": the host's name
 * must not show. Exit 0 iff uname says "jail" -> OK. */
#include <sys/utsname.h>

#include "hostile.h"

int main(void)
{
    struct utsname u;
    if (uname(&u) < 0)
        return 2;
    fprintf(stderr, "nodename %s\n", u.nodename);
    if (strcmp(u.nodename, "jail"))
        escaped("uname shows the host's name");
    return hostile_result();
}
