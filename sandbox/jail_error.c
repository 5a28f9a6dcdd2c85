/* jail_error.c - one-line error messages for the jail core ("jail: step: reason"). */
#include "sandbox/jail_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PREFIX "jail: "

int jail_fail(struct jail_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        memcpy(err->msg, PREFIX, sizeof PREFIX);
        vsnprintf(err->msg + sizeof PREFIX - 1, sizeof err->msg - (sizeof PREFIX - 1), fmt, ap);
        va_end(ap);
    }
    return -1;
}

int jail_fail_errno(struct jail_error *err, int errnum, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        memcpy(err->msg, PREFIX, sizeof PREFIX);
        vsnprintf(err->msg + sizeof PREFIX - 1, sizeof err->msg - (sizeof PREFIX - 1), fmt, ap);
        va_end(ap);
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, ": %s", strerror(errnum));
    }
    return -1;
}
