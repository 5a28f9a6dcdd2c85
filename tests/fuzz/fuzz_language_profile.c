/* fuzz_language_profile.c - the language profile reader (judge/compile/language_profile.c). */
#include "judge/compile/language_profile.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("profile.yaml", data, size);
    struct language_profile p;
    struct lp_error err;
    if (language_profile_load(path, &p, &err) == 0)
        language_profile_free(&p);
    return 0;
}
