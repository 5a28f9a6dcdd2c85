/*
 * serve_json_text.c - a client's JSON values as it wrote them. json-c keeps no text of an
 * integer (10**20 comes back as 18446744073709551615), so what the server reports and
 * records of a value (a game-id it does not know, a shot it refuses) is cut from the
 * message itself, once json-c has accepted it as JSON.
 */
#include <json-c/json.h>
#include <string.h>

#include "judge/serve/serve_internal.h"

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

static size_t skip_space(const char *p, size_t i, size_t len)
{
    while (i < len && is_space(p[i]))
        i++;
    return i;
}

/* One past the string whose opening quote is at i, or 0 when it does not end. */
static size_t string_end(const char *p, size_t i, size_t len)
{
    char quote = p[i];   /* json-c takes 'single-quoted' strings too */
    for (i++; i < len; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == quote)
            return i + 1;
    }
    return 0;
}

/* One past the value starting at i, or 0 when the scan cannot follow it (a comment, ...). */
static size_t value_end(const char *p, size_t i, size_t len)
{
    int depth = 0;
    while (i < len) {
        char ch = p[i];
        if (ch == '"' || ch == '\'') {
            i = string_end(p, i, len);
            if (i == 0 || depth == 0)
                return i;
            continue;
        }
        if (ch == '/')
            return 0;
        if (ch == '[' || ch == '{') {
            depth++;
        } else if (ch == ']' || ch == '}') {
            if (depth == 0)
                return i;   /* a scalar ends at its list's end */
            if (--depth == 0)
                return i + 1;
        } else if (depth == 0 && (ch == ',' || is_space(ch))) {
            return i;
        }
        i++;
    }
    return depth == 0 ? i : 0;
}

bool json_text_item(const char *text, size_t len, size_t index, const char **at, size_t *n)
{
    size_t i = skip_space(text, 0, len);
    if (i == len || text[i] != '[')
        return false;
    for (size_t k = 0;; k++) {
        i = skip_space(text, i + 1, len);
        size_t end = i < len && text[i] != ']' ? value_end(text, i, len) : 0;
        if (end == 0)
            return false;
        if (k == index) {
            *at = text + i;
            *n = end - i;
            return true;
        }
        i = skip_space(text, end, len);
        if (i == len || text[i] != ',')
            return false;
    }
}

/* At most max bytes of text, not cutting a UTF-8 character. */
static size_t utf8_cut(const char *text, size_t len, size_t max)
{
    if (len <= max)
        return len;
    while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80)
        max--;
    return max;
}

void json_text_shown(struct json_object *v, const char *raw, size_t raw_len, char *out, size_t outlen)
{
    static const char cut_mark[] = "...";
    if (!raw) {
        raw = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
        raw = raw ? raw : "null";
        raw_len = strlen(raw);
    }
    size_t n = utf8_cut(raw, raw_len, outlen - sizeof cut_mark);
    for (size_t i = 0; i < n; i++)   /* one line: a list's or object's own line breaks become spaces */
        out[i] = (unsigned char)raw[i] < 0x20 ? ' ' : raw[i];
    if (n < raw_len)
        memcpy(out + n, cut_mark, sizeof cut_mark);
    else
        out[n] = '\0';
}
