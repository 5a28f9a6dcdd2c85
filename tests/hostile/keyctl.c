/* keyctl: read the session keyring (keys are not namespaced) -> FORBIDDEN_SYSCALL keyctl. */
#include <linux/keyctl.h>
#include "hostile.h"

int main(void)
{
    return forbidden_call_returned("keyctl(KEYCTL_GET_KEYRING_ID)",
                                   syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
}
