/* plant_hardlink: argv: VICTIM (host path of RW/victim, root's, 0644). The bot
 * hard-links /data/victim at /data/report.json, where the judge writes its
 * report, tries a /bot file too (another mount: EXDEV), and plants
 * /data/out.txt -> VICTIM for the next run's --stdout. Whether or not the link
 * is allowed, the judge must replace the report's name, never write through
 * it, and refuse the planted --stdout symlink: run.sh checks the victim is
 * unchanged. Exit 0 -> OK. */
#include "hostile.h"

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    if (link("/data/victim", "/data/report.json") < 0)
        fprintf(stderr, "link /data/victim: %s\n", strerror(errno));
    must_fail("link /bot/plant_hardlink into /data", link("/bot/plant_hardlink", "/data/bot_link"));
    if (symlink(argv[1], "/data/out.txt") < 0) {
        fprintf(stderr, "symlink /data/out.txt: %s\n", strerror(errno));
        return 2;
    }
    return hostile_result();
}
