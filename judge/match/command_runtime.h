/*
 * command_runtime.h - what a `command:` player's runtime needs that its
 * command line tells: the run profile of its interpreter when the default one
 * is not enough (java -> jvm) and the interpreter's configuration directory
 * when it lives outside the system trees every jail sees (the JVM's
 * /etc/java-N-openjdk, which `java Bot.java` and java.security read).
 */
#ifndef JUDGE_COMMAND_RUNTIME_H
#define JUDGE_COMMAND_RUNTIME_H

#include <stddef.h>

/* The run profile for a command whose argv[0] is host_path on the host. */
const char *command_run_profile(const char *host_path);
/* The directory to bind read-only for it, written to out; 0 when none is needed. */
int command_config_dir(const char *host_path, char *out, size_t size);

#endif
