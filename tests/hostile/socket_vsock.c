/* socket_vsock: a vsock socket, to the hypervisor -> FORBIDDEN_SYSCALL socket. */
#include <sys/socket.h>
#include <linux/vm_sockets.h>
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("socket(AF_VSOCK)", socket(AF_VSOCK, SOCK_STREAM, 0));
}
