/* cli_args.c - usage errors and numbers of the command line (judge/cli/cli_args.h). */
#include "judge/cli/cli_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/cli/commands.h"

int cli_usage_error(const char *command, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "judge %s: ", command);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "%s\n", hint);
    va_end(ap);
    return EXIT_USAGE;
}

bool cli_parse_u64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    if (text[0] < '0' || text[0] > '9')
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}
