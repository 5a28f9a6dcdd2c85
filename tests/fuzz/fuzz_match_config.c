/* fuzz_match_config.c - the match file reader (judge/match/match_config.c), then the set-up from it
 * (judge/match/match_setup.c: maps, parameters, limits); the file may name tiny.map beside it. */
#include "judge/match/match.h"
#include "judge/match/match_config.h"
#include "tests/fuzz/fuzz_input.h"

static const char tiny_map[] = "2 3 2\n3\n1\n2 40\n4\n1\n3\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_file("tiny.map", (const uint8_t *)tiny_map, sizeof tiny_map - 1);
    const char *path = fuzz_file("m.yaml", data, size);
    struct match_config cfg;
    struct config_error err;
    if (match_config_load(path, &cfg, &err) < 0)
        return 0;
    struct match_overrides ov = {.now_unix = 1};
    struct match_setup s;
    struct match_error merr;
    if (match_setup_resolve(&cfg, &ov, &s, &merr) == 0)
        match_setup_free(&s);
    match_config_free(&cfg);
    return 0;
}
