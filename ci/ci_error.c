/* ci_error.c - one-line errors of the results stage (ci_error.h). */
#include "ci/ci_error.h"

#include <stdarg.h>
#include <stdio.h>

static int vfail(struct ci_error *err, int status, const char *fmt, va_list ap)
{
    err->status = status;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return -1;
}

int ci_fail(struct ci_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, CI_STATUS_INTERNAL, fmt, ap);
    va_end(ap);
    return -1;
}

int ci_fail_usage(struct ci_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, CI_STATUS_USAGE, fmt, ap);
    va_end(ap);
    return -1;
}

int ci_fail_damaged(struct ci_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, CI_STATUS_DAMAGED, fmt, ap);
    va_end(ap);
    return -1;
}

int ci_fail_oom(struct ci_error *err)
{
    return ci_fail(err, "out of memory");
}
