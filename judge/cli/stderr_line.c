/* stderr_line.c - the line of a bot's stderr worth showing (judge/cli/stderr_line.h). */
#include "judge/cli/stderr_line.h"

#include <string.h>

/* The line that ends at s[end] (a '\n', or the end of s), without its "\r": start and length. */
static size_t line_before(const char *s, size_t end, size_t *len)
{
    size_t n = end;
    if (n && s[n - 1] == '\r') n--;
    size_t start = n;
    while (start && s[start - 1] != '\n')
        start--;
    *len = n - start;
    return start;
}

/* "\tat X" or "\t... 3 more" (any indent of spaces or tabs): one frame of a Java stack trace. */
static bool is_java_frame(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == 0) return false;
    return (len - i > 3 && !memcmp(line + i, "at ", 3)) || (len - i > 4 && !memcmp(line + i, "... ", 4));
}

/* The JVM's echo of the JAVA_TOOL_OPTIONS the judge gives every java bot (match_setup.c): not the
 * bot's own words. */
static bool is_jvm_options_note(const char *line, size_t len)
{
    static const char note[] = "Picked up JAVA_TOOL_OPTIONS: ";
    return len >= sizeof note - 1 && !memcmp(line, note, sizeof note - 1);
}

const char *stderr_shown_line(const char *s, size_t n, size_t *len, bool *above_trace)
{
    *above_trace = false;
    size_t start;
    for (;;) {
        while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
            n--;
        start = line_before(s, n, len);
        if (!is_jvm_options_note(s + start, *len)) break;
        n = start;
        *len = 0;
    }
    size_t last_start = start, last_len = *len;
    while (*len && is_java_frame(s + start, *len) && start) {
        start = line_before(s, start - 1, len);
        *above_trace = true;
    }
    if (*above_trace && *len && !is_java_frame(s + start, *len)) return s + start;
    *above_trace = false; /* frames up to the tail's start: the exception's line was cut off */
    *len = last_len;
    return s + last_start;
}
