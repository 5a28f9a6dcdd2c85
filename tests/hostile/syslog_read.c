/* syslog_read: read the kernel log (addresses, other tenants' messages) ->
 * FORBIDDEN_SYSCALL syslog. */
#include "hostile.h"

int main(void)
{
    static char buf[4096];
    return forbidden_call_returned("syslog(SYSLOG_ACTION_READ_ALL)", syscall(SYS_syslog, 3, buf, sizeof buf));
}
