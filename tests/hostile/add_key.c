/* add_key: add a key to the kernel keyring -> FORBIDDEN_SYSCALL add_key. */
#include <linux/keyctl.h>
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("add_key", syscall(SYS_add_key, "user", "hostile", "x", 1,
                                                      KEY_SPEC_SESSION_KEYRING));
}
