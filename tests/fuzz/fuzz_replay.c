/*
 * fuzz_replay.c - the replay reader (replay/replay_reader.c) and what reads
 * through it: verify (the game rebuilt from the header, every recorded reply
 * fed to the engine) with the game's log. An input that is not gzip is
 * compressed first, so the fuzzer works on the JSON Lines themselves.
 */
#include <zlib.h>

#include "judge/verify/replay_verify.h"
#include "tests/fuzz/fuzz_input.h"

static const char *replay_file(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return fuzz_file("r.jsonl.gz", data, size);
    const char *path = fuzz_file("r.jsonl.gz", NULL, 0);
    gzFile gz = gzopen(path, "wb1");
    if (!gz || (size && gzwrite(gz, data, (unsigned)size) != (int)size) || gzclose(gz) != Z_OK)
        abort();
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = replay_file(data, size);
    struct strbuf log = STRBUF_INIT;
    struct replay_verify_report rep;
    struct replay_error err;
    replay_verify(path, &log, &rep, &err);
    sb_free(&log);
    return 0;
}
