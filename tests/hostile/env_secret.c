/* env_secret: run.sh puts JUDGE_HOSTILE_SECRET in the judge's environment; it
 * must be nowhere in the jail: not in environ, not in any /proc/PID/environ
 * (pid 1 is the program itself). Exit 0 iff not found -> OK. */
#include <dirent.h>

#include "hostile.h"

#define SECRET_NAME "JUDGE_HOSTILE_SECRET"

extern char **environ;

/* Does the file hold the name? Sets *had_path when it holds PATH= (it was readable). */
static int file_has_secret(const char *path, int *had_path)
{
    static char buf[1 << 16];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = '\n';
    buf[n] = '\0';
    if (strstr(buf, "PATH="))
        *had_path = 1;
    return strstr(buf, SECRET_NAME) != NULL;
}

int main(void)
{
    for (char **e = environ; *e; e++)
        if (strstr(*e, SECRET_NAME))
            escaped("the secret is in environ");
    int had_path = 0;
    if (file_has_secret("/proc/1/environ", &had_path))
        escaped("the secret is in /proc/1/environ");
    if (file_has_secret("/proc/self/environ", &had_path))
        escaped("the secret is in /proc/self/environ");
    DIR *proc = opendir("/proc");
    for (struct dirent *d; proc && (d = readdir(proc));) {
        char path[300];
        if (d->d_name[0] < '1' || d->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/environ", d->d_name);
        if (file_has_secret(path, &had_path))
            escaped(path);
    }
    if (proc)
        closedir(proc);
    /* With /proc mounted, our own environ must have been readable: the search was real. */
    if (access("/proc/self", F_OK) == 0 && !had_path)
        escaped("could not read /proc/self/environ, so the search proves nothing");
    return hostile_result();
}
