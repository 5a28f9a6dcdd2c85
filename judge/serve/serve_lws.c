/*
 * serve_lws.c - libwebsockets opened with dlopen by its SONAME (the Makefile reads it off
 * the library it builds against), every function serve_ws.c calls looked up at once, so a
 * missing one is an error at start, not a crash later.
 */
#include "judge/serve/serve_lws.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef LWS_SONAME
#define LWS_SONAME "libwebsockets.so"
#endif

struct serve_lws serve_lws;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static int look_up(void *lib, const char *name, void **slot)
{
    dlerror();
    *slot = dlsym(lib, name);
    if (*slot)
        return 0;
    const char *why = dlerror();
    snprintf(load_error, sizeof load_error, "cannot load libwebsockets (%s): no %s%s%s", LWS_SONAME, name,
             why ? ": " : "", why ? why : "");
    return -1;
}

static void load(void)
{
    void *lib = dlopen(LWS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libwebsockets (%s): %s", LWS_SONAME,
                 why ? why : "dlopen failed");
        return;
    }
    struct serve_lws found;
#define SERVE_LWS_LOOK_UP(name)                                                                              \
    if (look_up(lib, #name, (void **)&found.name##_fn) < 0)                                                  \
        return;
    SERVE_LWS_FUNCTIONS(SERVE_LWS_LOOK_UP)
#undef SERVE_LWS_LOOK_UP
    serve_lws = found;   /* the library stays open for the process's life */
}

int serve_lws_load(char *why, size_t whylen)
{
    pthread_once(&load_once, load);
    if (!load_error[0])
        return 0;
    snprintf(why, whylen, "%s", load_error);
    return -1;
}
