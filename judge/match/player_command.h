/*
 * player_command.h - a `command:` player checked before its match: the
 * program is found where the jail will look, it is executable, and the
 * jail's user can reach it and the bot's files. Each problem is one line
 * naming the path and the fix, so a user's set-up is never blamed on the
 * judge as an INTERNAL_ERROR once the match has started.
 */
#ifndef JUDGE_PLAYER_COMMAND_H
#define JUDGE_PLAYER_COMMAND_H

#include <stddef.h>

#include "judge/match/match_config.h"

/* The jail's PATH, as every bot's environment gives it. */
#define JAIL_PATH "/usr/local/bin:/usr/bin:/bin"

/* Whether the jail's user can enter dir (and every directory above it): 0, or -1 with why and the fix. */
int player_dir_check(const char *dir, char *msg, size_t msg_size);
/* 0 with the program's host path in host_path, or -1 with why in msg. */
int player_command_check(const struct player_config *p, char *host_path, size_t host_size, char *msg,
                         size_t msg_size);

#endif
