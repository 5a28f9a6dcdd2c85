/* bpf_load: create a BPF map (the verifier is a kernel attack surface) -> FORBIDDEN_SYSCALL bpf. */
#include <linux/bpf.h>
#include "hostile.h"

int main(void)
{
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    return forbidden_call_returned("bpf(BPF_MAP_CREATE)", syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr));
}
