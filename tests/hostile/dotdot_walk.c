/* dotdot_walk: fchdir to /bot and walk ".." 64 times: the walk must stop at
 * the jail's root (pivot_root, not chroot): the directory reached must be "/",
 * list "bot" and no host directory (work, root, home). Exit 0 iff so -> OK. */
#include <dirent.h>

#include "hostile.h"

int main(void)
{
    int bot = open("/bot", O_RDONLY | O_DIRECTORY);
    if (bot < 0 || fchdir(bot) < 0)
        return 2;
    for (int i = 0; i < 64; i++)
        if (chdir("..") < 0)
            return 2;
    struct stat here, root;
    if (stat(".", &here) < 0 || stat("/", &root) < 0)
        return 2;
    if (here.st_ino != root.st_ino || here.st_dev != root.st_dev)
        escaped("walked above the jail's root");
    int saw_bot = 0;
    DIR *d = opendir(".");
    for (struct dirent *e; d && (e = readdir(d));) {
        saw_bot |= !strcmp(e->d_name, "bot");
        if (!strcmp(e->d_name, "work") || !strcmp(e->d_name, "root") || !strcmp(e->d_name, "home"))
            escaped(e->d_name);
    }
    if (d)
        closedir(d);
    if (!saw_bot)
        escaped("the directory reached is not the jail's root");
    return hostile_result();
}
