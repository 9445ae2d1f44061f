/* A C program on a GPSIMD core with picolibc: initialised and zeroed data, the stack (recursion),
 * library calls (memcpy, memset, qsort, sqrtf) and software-free float arithmetic, each checked
 * against a value worked out by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tern_gpsimd.h"

static int values[10] = {42, -7, 19, 3, 3, 0, 88, -31, 5, 11};
static int zeroed[16];

static int compare(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  for (int i = 0; i < 16; ++i) tern_check(zeroed[i] == 0, 1);
  qsort(values, 10, sizeof values[0], compare);
  static const int sorted[10] = {-31, -7, 0, 3, 3, 5, 11, 19, 42, 88};
  tern_check(memcmp(values, sorted, sizeof sorted) == 0, 2);
  memcpy(zeroed, values, sizeof values);
  memset(zeroed + 10, 0xff, 6 * sizeof zeroed[0]);
  tern_check(zeroed[9] == 88 && zeroed[15] == -1, 3);
  tern_check(fib(20) == 6765, 4);
  volatile float two = 2.0f;
  const float root = sqrtf(two);
  tern_check(root * root > 1.9999f && root * root < 2.0001f, 5);
  int sum = 0;
  for (int i = 0; i < 10; ++i) sum += values[i] / 2;  /* division rounds toward zero */
  tern_check(sum == -15 - 3 + 0 + 1 + 1 + 2 + 5 + 9 + 21 + 44, 6);
  tern_check(tern_cycles() >= tern_instret(), 7);
  return 0;
}
