/* judge_files: argv: the judge binary's host path and $HOME. Neither may be
 * openable, and "/" must not list their first components (work, root...).
 * Exit 0 iff all hidden -> OK. */
#include <dirent.h>

#include "hostile.h"

/* "/work/main/bin/judge" -> "work" */
static void first_component(const char *path, char *out, size_t size)
{
    while (*path == '/')
        path++;
    snprintf(out, size, "%.*s", (int)strcspn(path, "/"), path);
}

static void must_not_be_listed(const char *name)
{
    DIR *root = opendir("/");
    if (!root) {
        escaped("cannot list / (the check proves nothing)");
        return;
    }
    for (struct dirent *d; (d = readdir(root));)
        if (!strcmp(d->d_name, name)) {
            fprintf(stderr, "ESCAPED: / lists %s\n", name);
            hostile_escapes++;
        }
    closedir(root);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    for (int i = 1; i < argc; i++) {
        char top[256];
        must_not_open(argv[i], O_RDONLY);
        first_component(argv[i], top, sizeof top);
        if (strcmp(top, "usr") && strcmp(top, "tmp"))
            must_not_be_listed(top);
    }
    must_not_open("/work", O_RDONLY | O_DIRECTORY);
    must_not_open("/root", O_RDONLY | O_DIRECTORY);
    must_not_open("/home", O_RDONLY | O_DIRECTORY);
    return hostile_result();
}
