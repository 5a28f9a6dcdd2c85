/* The assembler told to copy an endless file into the object. */
__asm__(".section .rodata\n.incbin \"/dev/zero\"\n.text");
int main(void) { return 0; }
