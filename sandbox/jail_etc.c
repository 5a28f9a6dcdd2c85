/*
 * jail_etc.c - the jail's own /etc: what glibc and language runtimes read at
 * start-up (user and group names, the name service switch, hosts, the time
 * zone), written for the jail instead of bound from the host. The host's
 * files would name host users and, with `passwd: files systemd` (stock
 * Debian and Ubuntu), send every user lookup to systemd over a socket.
 */
#include "sandbox/mount_plan.h"


#define STR_(x) #x
#define STR(x)  STR_(x)
#define JAIL_USER "bot"
#define JAIL_HOME "/tmp" /* the one writable directory every jail has */

static const char passwd[] =
    "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    JAIL_USER ":x:" STR(JAIL_INNER_UID) ":" STR(JAIL_INNER_GID) ":bot:" JAIL_HOME ":/bin/sh\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";

static const char group[] =
    "root:x:0:\n"
    JAIL_USER ":x:" STR(JAIL_INNER_GID) ":\n"
    "nogroup:x:65534:\n";

/* Every database from files only: nothing asks a daemon. */
static const char nsswitch[] =
    "passwd: files\ngroup: files\nshadow: files\nhosts: files\nnetworks: files\n"
    "protocols: files\nservices: files\nethers: files\nrpc: files\n";

static const char hosts[] =
    "127.0.0.1 localhost\n"
    "::1 localhost ip6-localhost ip6-loopback\n"
    "127.0.1.1 " JAIL_HOSTNAME "\n";

void plan_jail_etc(struct mount_plan *p)
{
    plan_write_file(p, "/etc/passwd", passwd);
    plan_write_file(p, "/etc/group", group);
    plan_write_file(p, "/etc/nsswitch.conf", nsswitch);
    plan_write_file(p, "/etc/hosts", hosts);
    plan_write_file(p, "/etc/hostname", JAIL_HOSTNAME "\n");
    /* UTC whatever the host's zone: a match plays the same everywhere. */
    plan_symlink(p, "/etc/localtime", "/usr/share/zoneinfo/Etc/UTC");
}
