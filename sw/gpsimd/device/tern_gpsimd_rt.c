/* The device runtime every GPSIMD program links (docs/gpsimd.md): the tohost word and the _exit
 * that picolibc's exit() ends in. */
#include "tern_gpsimd.h"

volatile uint32_t tohost __attribute__((aligned(4)));

void _exit(int status) { tern_exit((uint32_t)status); }
