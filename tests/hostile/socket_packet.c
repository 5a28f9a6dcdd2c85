/* socket_packet: a raw packet socket -> FORBIDDEN_SYSCALL socket. */
#include <sys/socket.h>

#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("socket(AF_PACKET)", socket(AF_PACKET, SOCK_RAW, 0));
}
