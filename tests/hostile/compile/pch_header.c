/* A submission that ships a precompiled header (shadow.h.gch, made by the runner
 * from other text than shadow.h): gcc would load it, a dump of the compiler's own
 * memory written by the submission, instead of reading shadow.h. The profiles
 * include stdc-predef.h first, after which gcc uses no precompiled header: the
 * #error of shadow.h itself is the verdict. */
#include "shadow.h"

int main(void) { return from_pch; }
