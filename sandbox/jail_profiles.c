/* jail_profiles.c - the public question "is this a run profile?", answered by the seccomp registry. */
#include "sandbox/jail.h"
#include "sandbox/seccomp_policy.h"

bool jail_profile_exists(const char *name)
{
    return name && seccomp_profile_exists(name);
}
