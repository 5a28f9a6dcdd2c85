/*
 * replay_main.c - runs a fuzz target over kept inputs without libFuzzer, so
 * `make test` replays the seeds and regressions under GCC's ASan+UBSan:
 * each argument is an input file or a directory of them (not recursive).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *data = malloc(cap);
    size_t n;
    while (data && (n = fread(data + len, 1, cap - len, f)) > 0)
        if ((len += n) == cap)
            data = realloc(data, cap *= 2);
    fclose(f);
    if (!data)
        return -1;
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir in name order, so a failure reproduces in the same order. */
static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, compare_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (rc == 0 && run_file(path) < 0)
            rc = -1;
        (*count)++;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int rc = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? run_dir(argv[i], &count)
                                                                : (count++, run_file(argv[i]));
        if (rc < 0)
            return 1;
    }
    printf("%s: %d inputs\n", argv[0], count);
    return 0;
}
