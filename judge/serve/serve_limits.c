/*
 * serve_limits.c - the checks behind the server's limits (docs/network.md, "Limits"): calls
 * per second per session (a token bucket with a burst of twice the rate) and the shape of
 * a player-id. The byte and connection limits are counted where the bytes are (serve_ws.c),
 * the game limits where the games are (serve_calls.c); each refusal names its limit.
 */
#include "judge/serve/serve_internal.h"

bool rate_allow(struct rate *r, uint64_t per_second, uint64_t now_ms)
{
    double burst = 2.0 * (double)per_second;
    if (per_second == 0)
        return true;
    if (r->at_ms == 0)
        r->tokens = burst;
    else
        r->tokens += (double)(now_ms - r->at_ms) * (double)per_second / 1000.0;
    if (r->tokens > burst)
        r->tokens = burst;
    r->at_ms = now_ms;
    if (r->tokens < 1.0)
        return false;
    r->tokens -= 1.0;
    return true;
}

bool limits_player_id_ok(const char *id, size_t len)
{
    if (len < 1 || len > NET_PLAYER_ID_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (id[i] < 0x20 || id[i] > 0x7e)
            return false;
    return true;
}
