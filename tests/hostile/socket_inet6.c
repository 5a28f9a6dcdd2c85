/* socket_inet6: an IPv6 socket -> FORBIDDEN_SYSCALL socket. */
#include <sys/socket.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("socket(AF_INET6)", socket(AF_INET6, SOCK_DGRAM, 0));
}
