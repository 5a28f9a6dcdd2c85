/* fuzz_tournament_config.c - the tournament file reader (judge/tournament/tournament_config.c) and its
 * plan (judge/tournament/tournament_plan.c: formats, samples, match ids). */
#include "judge/tournament/tournament.h"
#include "tests/fuzz/fuzz_input.h"

static const char tiny_map[] = "2 3 2\n3\n1\n2 40\n4\n1\n3\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_file("tiny.map", (const uint8_t *)tiny_map, sizeof tiny_map - 1);
    const char *path = fuzz_file("t.yaml", data, size);
    struct tournament_config cfg;
    struct tournament_plan plan;
    struct tournament_error err;
    if (tournament_config_load(path, &cfg, &err) < 0)
        return 0;
    if (tournament_plan_build(&cfg, &plan, &err) == 0) {
        char id[TOURNAMENT_ID_MAX];
        for (size_t i = 0; i < plan.n && i < 64; i++)
            tournament_match_id(&cfg, &plan, &plan.matches[i], id);
        tournament_plan_free(&plan);
    }
    tournament_config_free(&cfg);
    return 0;
}
