/* write_outside: create files in /bot, /, /usr, /etc, /bin, /lib and /proc;
 * every attempt must fail (EROFS, EACCES) -> exit 0 -> OK. */
#include "hostile.h"

int main(void)
{
    static const char *const dirs[] = {"/bot", "", "/usr", "/etc", "/bin", "/lib", "/usr/bin", "/proc"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/hostile_write_outside", dirs[i]);
        must_not_open(path, O_WRONLY | O_CREAT | O_EXCL);
        snprintf(path, sizeof path, "%s/hostile_write_outside.d", dirs[i]);
        must_fail(path, mkdir(path, 0755));
    }
    must_not_open("/bot/write_outside", O_WRONLY | O_APPEND);
    must_not_open("/etc/passwd", O_WRONLY | O_APPEND);
    return hostile_result();
}
