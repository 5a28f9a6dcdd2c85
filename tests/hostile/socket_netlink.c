/* socket_netlink: a netlink socket (routes, audit, uevents) -> FORBIDDEN_SYSCALL socket. */
#include <sys/socket.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("socket(AF_NETLINK)", socket(AF_NETLINK, SOCK_RAW, 0));
}
