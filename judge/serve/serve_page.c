/*
 * serve_page.c - the human page served on "/" (judge/serve/serve_page.html), embedded in the
 * binary so the server needs no file at run time.
 */
#include "judge/serve/serve_internal.h"

__asm__(".section .rodata\n"
        ".global serve_page_start\n"
        ".global serve_page_end\n"
        "serve_page_start:\n"
        ".incbin \"judge/serve/serve_page.html\"\n"
        "serve_page_end:\n"
        ".previous\n");

extern const char serve_page_start[];
extern const char serve_page_end[];

const char *serve_page(size_t *len)
{
    *len = (size_t)(serve_page_end - serve_page_start);
    return serve_page_start;
}
