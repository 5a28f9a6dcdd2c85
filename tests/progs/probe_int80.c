/* probe_int80: exits 0 when this kernel delivers an i386 system call made with
 * int $0x80 (getpid, number 20) outside any jail; a kernel without IA32
 * emulation, or with it turned off (ia32_emulation=0), kills it with SIGSEGV.
 * The tests that make such a call in the jail skip, by name, where it exits
 * otherwise. */
#include <unistd.h>

int main(void)
{
    long rc = 20;
    __asm__ volatile("int $0x80" : "+a"(rc) : : "memory");
    return rc == (long)getpid() ? 0 : 1;
}
