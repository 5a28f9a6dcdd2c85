/* sleep_forever: block forever using no CPU -> WALL_LIMIT. */
#include "hostile.h"

int main(void)
{
    sleep_forever();
}
