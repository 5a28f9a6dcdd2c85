/* ci_error.h - the one-line error every function of the results stage returns. */
#ifndef CI_ERROR_H
#define CI_ERROR_H

/* status: CI_STATUS_DAMAGED for a damaged input file (noted and skipped, never fatal);
 * otherwise what `judge results` exits with (2 usage or input, 3 internal). */
struct ci_error {
    int status;
    char msg[768];
};

enum { CI_STATUS_DAMAGED = 1, CI_STATUS_USAGE = 2, CI_STATUS_INTERNAL = 3 };

/* Fill err (status CI_STATUS_INTERNAL unless ci_fail_usage) and return -1. */
int ci_fail(struct ci_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ci_fail_usage(struct ci_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ci_fail_damaged(struct ci_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ci_fail_oom(struct ci_error *err);

#endif
