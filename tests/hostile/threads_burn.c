/* threads_burn: 16 threads burn CPU together -> CPU_LIMIT, and cpu_ns counts
 * every thread (it reaches the limit although each thread used a fraction). */
#include <pthread.h>

#include "hostile.h"

static void *burn(void *unused)
{
    (void)unused;
    burn_cpu_forever();
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 16; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, burn, NULL) != 0)
            return 2;
    }
    burn_cpu_forever();
}
