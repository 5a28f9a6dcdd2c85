/*
 * fuzz_input.h - what the fuzz targets share: the readers under test take a
 * path, so each input is written to a file of a private directory first.
 * LLVMFuzzerTestOneInput is the libFuzzer entry point (`make fuzz`); the
 * same targets replay the kept inputs under ASan+UBSan in `make test`.
 */
#ifndef TESTS_FUZZ_INPUT_H
#define TESTS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A directory of this process's own, made once and removed at exit. */
static char fuzz_dir_path[64];

__attribute__((unused)) static void fuzz_remove_dir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_path);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_path);
}

__attribute__((unused)) static const char *fuzz_dir(void)
{
    if (!fuzz_dir_path[0]) {
        /* /dev/shm where there is one: fsync (every output file's) costs nothing there */
        snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/judge-fuzz.XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(fuzz_dir_path))
            abort();
        atexit(fuzz_remove_dir);
    }
    return fuzz_dir_path;
}

/* Writes data to NAME in the fuzz directory; the path is in a static buffer. */
__attribute__((unused)) static const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    return path;
}

#endif
