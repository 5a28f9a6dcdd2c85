/* plant_symlink: argv: VICTIM_DIR VICTIM (host paths). The judge writes its
 * report to RW/sub/report.json after the run; this bot swaps /data/sub for a
 * symlink to VICTIM_DIR and plants /data/sub.orig/report.json -> VICTIM, so a
 * judge that resolved the path late, or followed links, would write over a host
 * file. Exit 0 -> OK; run.sh checks the victim is untouched and the report
 * landed in the original directory (now RW/sub.orig). */
#include "hostile.h"

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    if (rename("/data/sub", "/data/sub.orig") < 0 || symlink(argv[1], "/data/sub") < 0 ||
        symlink(argv[2], "/data/sub.orig/report.json") < 0) {
        fprintf(stderr, "planting failed: %s\n", strerror(errno));
        return 2;
    }
    return 0;
}
