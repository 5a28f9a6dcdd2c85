/* fuzz_grading.c - the grading file reader of the results stage (ci/grading.c). */
#include "ci/grading.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("grading.yaml", data, size);
    struct grading g;
    struct ci_error err;
    if (grading_load(path, &g, &err) == 0)
        grading_free(&g);
    return 0;
}
