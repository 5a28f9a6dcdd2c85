/*
 * command_runtime.c - a command's run profile and configuration directory,
 * found from where its argv[0] really is (judge/command_runtime.h).
 */
#include "judge/match/command_runtime.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JVM_PROFILE     "jvm"
#define DEFAULT_PROFILE "default"

/* The file's real name (links resolved: /usr/bin/java -> .../bin/java). */
static const char *real_base(const char *host_path, char *real)
{
    if (!realpath(host_path, real)) return NULL;
    const char *slash = strrchr(real, '/');
    return slash ? slash + 1 : real;
}

const char *command_run_profile(const char *host_path)
{
    char real[PATH_MAX];
    const char *base = real_base(host_path, real);
    return base && !strcmp(base, "java") ? JVM_PROFILE : DEFAULT_PROFILE;
}

/* JAVA_HOME/bin/java -> JAVA_HOME/conf/security/java.security, followed to
 * /etc/java-N-openjdk/security/java.security on Debian: /etc/java-N-openjdk. */
int command_config_dir(const char *host_path, char *out, size_t size)
{
    char real[PATH_MAX], conf[PATH_MAX + 32], target[PATH_MAX];
    const char *base = real_base(host_path, real);
    if (!base || strcmp(base, "java")) return 0;
    char *bin = strrchr(real, '/');
    *bin = '\0';
    char *home_end = strrchr(real, '/');
    if (!home_end || strcmp(home_end, "/bin")) return 0;
    *home_end = '\0';
    snprintf(conf, sizeof conf, "%s/conf/security/java.security", real);
    if (!realpath(conf, target) || strncmp(target, "/etc/", 5)) return 0;
    size_t len = 5 + strcspn(target + 5, "/");
    if (target[len] != '/' || len >= size) return 0;
    snprintf(out, size, "%.*s", (int)len, target);
    return 1;
}
