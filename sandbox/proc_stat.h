/*
 * proc_stat.h - the fields of /proc/PID/stat after the command's name, which
 * may hold spaces and parentheses (so they start after its last ')').
 */
#ifndef SANDBOX_PROC_STAT_H
#define SANDBOX_PROC_STAT_H

#include <stddef.h>
#include <sys/types.h>

/* Reads /proc/PID/stat into buf and returns its third field (the state letter) onwards, each
 * field after one space; NULL when it cannot be read. */
const char *proc_stat_fields(pid_t pid, char *buf, size_t cap);

#endif
