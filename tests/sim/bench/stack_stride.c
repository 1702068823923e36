// Stand-alone (no simulator): what the distance between fiber stacks costs. N stacks are mapped as
// the runtime mapped them before it coloured them (one guard page, then the stack), each one's top
// holds a pointer to the next one's top, and the chase through them writes LINES cache lines below
// each top, as a barrier crossing touches every parked thread's frames. Usage:
// sim_bench_stack_stride [STACK_KB [N [LINES]]]; ns per stack visited (process CPU time). With one
// guard page, 512 KiB stacks are 129 pages apart: on the Xeon this was measured on, 1.1 to 2.5
// times as slow as 508 or 516 KiB (it varies with where mmap puts them; run it a few times).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  size_t kb = argc > 1 ? (size_t)atol(argv[1]) : 512;
  int n = argc > 2 ? atoi(argv[2]) : 256;
  int lines = argc > 3 ? atoi(argv[3]) : 4;
  const size_t page = 4096, size = kb << 10;
  if (kb < 4 || n < 1 || lines < 1 || (size_t)lines * 64 + 4096 > size) {
    fprintf(stderr, "usage: sim_bench_stack_stride [STACK_KB [N [LINES]]]\n");
    return 2;
  }
  char **top = malloc((size_t)n * sizeof *top);
  for (int i = 0; i < n; ++i) {
    char *m = mmap(NULL, page + size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (top == NULL || m == MAP_FAILED) return 1;
    mprotect(m, page, PROT_NONE);
    // the runtime's stagger within a page (448 bytes a stack), and room for the pointer
    top[i] = m + page + size - (size_t)i * 448 % 4096 - 64;
  }
  for (int i = 0; i < n; ++i) {
    *(char **)top[i] = top[(i + 1) % n];
    for (int l = 1; l < lines; ++l) top[i][-64 * l] = 1;
  }
  const long visits = 50000000;
  char *p = top[0];
  double c = cpu_seconds();
  for (long v = 0; v < visits; ++v) {
    char *next = *(char **)p;
    for (int l = 1; l < lines; ++l) p[-64 * l] += 1;
    p = next;
  }
  c = cpu_seconds() - c;
  printf("%zu KiB stacks (%zu pages apart), %d stacks, %d lines: %.2f ns per stack visited%s\n", kb,
         (size + page) / page, n, lines, c / (double)visits * 1e9, p == NULL ? "!" : "");
  return 0;
}
