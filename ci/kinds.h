/* kinds.h - violation kinds (README C9's names), most serious first; "other" for a name we do not know. */
#ifndef CI_KINDS_H
#define CI_KINDS_H

enum ci_kind {
    CI_KIND_FORBIDDEN_SYSCALL,
    CI_KIND_MEMORY_LIMIT,
    CI_KIND_TIME,
    CI_KIND_CRASH,
    CI_KIND_INVALID_OUTPUT,
    CI_KIND_INVALID_MOVE,
    CI_KIND_OTHER,
    CI_KIND_COUNT
};
const char *ci_kind_name(enum ci_kind k);
enum ci_kind ci_kind_of(const char *name);

#endif
