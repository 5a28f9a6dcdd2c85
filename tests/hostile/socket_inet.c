/* socket_inet: an IPv4 socket, the way to any network -> FORBIDDEN_SYSCALL socket. */
#include <sys/socket.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("socket(AF_INET)", socket(AF_INET, SOCK_STREAM, 0));
}
