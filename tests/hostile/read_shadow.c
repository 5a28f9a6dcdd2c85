/* read_shadow: read the host's password hashes; exit 0 iff it could not -> OK. */
#include "hostile.h"

int main(void)
{
    must_not_open("/etc/shadow", O_RDONLY);
    must_not_open("/etc/gshadow", O_RDONLY);
    must_not_open("/etc/shadow", O_WRONLY);
    return hostile_result();
}
