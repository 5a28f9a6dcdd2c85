/*
 * stderr_line.h - the one line of a bot's stderr tail that `judge run` and `judge tournament`
 * show under its verdict.
 */
#ifndef JUDGE_STDERR_LINE_H
#define JUDGE_STDERR_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* The last non-empty line of s[0..n), without its "\r"; but when that line is a frame of a
 * Java stack trace ("\tat Main.main(Main.java:7)", "\t... 3 more"), the line above the
 * frames instead, which names the exception (`Exception in thread "main" ...`, `Caused by:
 * ...`). The JVM's line about the JAVA_TOOL_OPTIONS the judge sets is passed over. *above_trace
 * says which. *len is 0 when there is no such line. */
const char *stderr_shown_line(const char *s, size_t n, size_t *len, bool *above_trace);

#endif
