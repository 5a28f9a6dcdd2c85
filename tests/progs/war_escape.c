/*
 * war_escape.c - tries to write outside its data directory, and checks the data
 * directory is its own and lasts the whole match (warlight.md §4.1).
 *
 * Every turn: creating a file in /bot, /, /usr, /dev or through /data/.. must
 * fail, /data must hold nothing but its own two files (and the judge's links
 * to its bot's files), and its turn counter
 * in /data/count must go on from the last turn. If any check fails it prints
 * garbage (skip-output). On its 5th process of the match it prints nothing
 * (skip-nooutput): where that lands in the log shows the counter survived
 * every turn and round before it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "war_bot.h"

#define MARK_TURN 5

static bool can_create(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return false;
    close(fd);
    unlink(path);
    return true;
}

static bool escapes(void)
{
    static const char *const outside[] = {"/bot/escape", "/escape", "/usr/escape", "/dev/escape",
                                          "/data/../escape"};
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
        if (can_create(outside[i]))
            return true;
    return false;
}

/* The judge's link to one of the bot's own files: NAME -> /bot/NAME. */
static bool link_to_own_file(const char *name)
{
    char target[300], want[300];
    ssize_t n = readlink(name, target, sizeof target - 1);
    if (n < 0)
        return false;
    target[n] = '\0';
    snprintf(want, sizeof want, "/bot/%s", name);
    return strcmp(target, want) == 0;
}

/* Only "count", "owner" and the links to its own files in the working directory /data. */
static bool only_own_files(void)
{
    char cwd[64];
    DIR *d = opendir(".");
    bool ok = d && getcwd(cwd, sizeof cwd) && strcmp(cwd, "/data") == 0;
    for (struct dirent *e; ok && (e = readdir(d));)
        ok = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "count") ||
             !strcmp(e->d_name, "owner") || link_to_own_file(e->d_name);
    if (d)
        closedir(d);
    return ok;
}

static long read_number(const char *path, long missing)
{
    FILE *f = fopen(path, "r");
    long v = missing;
    if (f && fscanf(f, "%ld", &v) != 1)
        v = -2;
    if (f)
        fclose(f);
    return v;
}

static bool write_number(const char *path, long v)
{
    FILE *f = fopen(path, "w");
    bool ok = f && fprintf(f, "%ld\n", v) > 0;
    return f && fclose(f) == 0 && ok;
}

static void play(const struct war_turn *t)
{
    long count = read_number("count", 0), owner = read_number("owner", t->id);
    bool ok = !escapes() && only_own_files() && owner == t->id && count >= 0 && (count > 0 || t->first) &&
              write_number("count", count + 1) && write_number("owner", t->id);
    if (!ok)
        printf("escaped or lost its data\n");
    else if (count + 1 != MARK_TURN)
        war_valid_reply(t);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    return war_main(argc, argv);
}
