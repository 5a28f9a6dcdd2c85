/*
 * json_check.c - the check of a reply or event line (json_check.h). One loop over
 * the bytes with the position in a register and the open containers as bits of a
 * word: a recursive descent spent more of `judge results` in calls than in bytes.
 */
#include "replay/json_check.h"

#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 16 /* json-c's own limit is 32 */

/* The bytes that end a run of plain string bytes: '"', '\\' and the control bytes. */
static const bool string_stop[256] = {[0 ... 0x1f] = true, ['"'] = true, ['\\'] = true};
static const bool digit[256] = {['0' ... '9'] = true};
static const bool space[256] = {[' '] = true, ['\t'] = true, ['\r'] = true};

/* Replays are written without spaces: one comparison says there is none. */
static const unsigned char *skip_space(const unsigned char *p, const unsigned char *end)
{
    while (p < end && *p <= ' ' && space[*p])
        p++;
    return p;
}

static bool is_hex(unsigned char ch)
{
    return digit[ch] || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
}

/* After a backslash at p: where the escape ends, or NULL (not one taken here). */
static const unsigned char *escape_end(const unsigned char *p, const unsigned char *end)
{
    if (++p == end)
        return NULL;
    if (*p != 'u')
        return *p && strchr("\"\\/bfnrt", *p) ? p + 1 : NULL;
    if (end - p < 5 || !is_hex(p[1]) || !is_hex(p[2]) || !is_hex(p[3]) || !is_hex(p[4]))
        return NULL;
    if ((p[1] | 0x20) == 'd' && p[2] >= '8') /* a surrogate: json-c's pairing rules decide */
        return NULL;
    return p + 5;
}

/*
 * Eight bytes at a time (SWAR): each function sets the top bit of every byte of
 * the word that matches. A borrow or carry only runs from a matching byte into
 * the bytes after it, so the lowest set bit is exact: the first match.
 */
#define ONES  0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static uint64_t bytes_below(uint64_t x, unsigned n)
{
    return (x - ONES * n) & ~x & HIGHS;
}

static uint64_t bytes_equal(uint64_t x, unsigned char c)
{
    return bytes_below(x ^ (ONES * c), 1);
}

static uint64_t bytes_above(uint64_t x, unsigned n)
{
    return ((x + ONES * (127 - n)) | x) & HIGHS;
}

static uint64_t load8(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x); /* the first byte in the lowest bits, as on little-endian */
#endif
    return x;
}

/* The first byte from p that is not a plain string byte (a quote, a backslash, a control byte), or end. */
static const unsigned char *string_stop_at(const unsigned char *p, const unsigned char *end)
{
    for (; end - p >= 8; p += 8) {
        uint64_t x = load8(p);
        uint64_t stops = bytes_equal(x, '"') | bytes_equal(x, '\\') | bytes_below(x, 0x20);
        if (stops)
            return p + __builtin_ctzll(stops) / 8;
    }
    while (p < end && !string_stop[*p])
        p++;
    return p;
}

/* The first byte from p that is not a digit, or end. */
static const unsigned char *digits_end(const unsigned char *p, const unsigned char *end)
{
    for (; end - p >= 8; p += 8) {
        uint64_t x = load8(p);
        uint64_t others = bytes_below(x, '0') | bytes_above(x, '9');
        if (others)
            return p + __builtin_ctzll(others) / 8;
    }
    while (p < end && digit[*p])
        p++;
    return p;
}

/* A string opening at p: past its closing quote, or NULL; *escaped tells whether it held a backslash. */
static const unsigned char *string_end(const unsigned char *p, const unsigned char *end, bool *escaped)
{
    p++;
    for (;;) {
        p = string_stop_at(p, end);
        if (p == end || *p < 0x20)
            return NULL;
        if (*p == '"')
            return p + 1;
        *escaped = true;
        if (!(p = escape_end(p, end)))
            return NULL;
    }
}

/* An integer of at most 18 digits at p, the only numbers taken here: past it, or NULL. */
static const unsigned char *number_end(const unsigned char *p, const unsigned char *end)
{
    if (*p == '-')
        p++;
    const unsigned char *digits = p;
    p = digits_end(p, end);
    size_t n = (size_t)(p - digits);
    if (n == 0 || n > 18 || (n > 1 && *digits == '0'))
        return NULL;
    return p < end && (*p == '.' || *p == 'e' || *p == 'E') ? NULL : p;
}

static const unsigned char *word_end(const unsigned char *p, const unsigned char *end)
{
    static const char *const words[] = {"true", "false", "null"};
    for (size_t i = 0; i < 3; i++) {
        size_t len = strlen(words[i]);
        if (*p == (unsigned char)words[i][0])
            return (size_t)(end - p) >= len && !memcmp(p, words[i], len) ? p + len : NULL;
    }
    return NULL;
}

/* A scalar at p (the caller has seen it is not a container): past it, or NULL. */
static const unsigned char *scalar_end(const unsigned char *p, const unsigned char *end)
{
    bool escaped = false;
    if (*p == '"')
        return string_end(p, end, &escaped);
    if (*p == '-' || digit[*p])
        return number_end(p, end);
    return word_end(p, end);
}

/*
 * The members of the top object from the ',' after its "type" member on, to its
 * closing brace at end. objects has bit d set when the container at depth d is an
 * object; the top one is depth 1, whose keys must be plain and not "type" again.
 */
static bool members_from_comma(const unsigned char *p, const unsigned char *end)
{
    uint32_t objects = 1u << 1;
    int depth = 1;
    goto after_value;
key:
    p = skip_space(p, end);
    if (p == end || *p != '"')
        return false;
    {
        const unsigned char *key = p;
        bool escaped = false;
        if (!(p = string_end(p, end, &escaped)))
            return false;
        if (depth == 1 && (escaped || (p - key == 6 && !memcmp(key, "\"type\"", 6))))
            return false;
    }
    p = skip_space(p, end);
    if (p == end || *p++ != ':')
        return false;
value:
    p = skip_space(p, end);
    if (p == end)
        return false;
    if (*p == '{' || *p == '[') {
        if (depth + 1 > MAX_DEPTH)
            return false;
        bool object = *p++ == '{';
        depth++;
        objects = object ? objects | 1u << depth : objects & ~(1u << depth);
        p = skip_space(p, end);
        if (p < end && *p == (object ? '}' : ']')) {
            p++;
            depth--;
            goto after_value;
        }
        if (object)
            goto key;
        goto value;
    }
    if (!(p = scalar_end(p, end)))
        return false;
after_value:
    p = skip_space(p, end);
    if (p == end)
        return false;
    {
        bool object = objects >> depth & 1;
        unsigned char ch = *p++;
        if (ch == ',') {
            if (object)
                goto key;
            goto value;
        }
        if (ch != (object ? '}' : ']'))
            return false;
    }
    if (--depth > 0)
        goto after_value;
    return p == end;
}

bool json_check_move_line(const char *text, size_t len)
{
    static const char reply[] = "{\"type\":\"reply\",", event[] = "{\"type\":\"event\",";
    size_t prefix = sizeof reply - 1;
    if (len <= prefix || (memcmp(text, reply, prefix) && memcmp(text, event, prefix)))
        return false;
    const unsigned char *p = (const unsigned char *)text;
    return members_from_comma(p + prefix - 1, p + len);
}
