/* Times four runs of a 1.1 s host step: past 3 s the timing loop must say how far it is. */
#define _POSIX_C_SOURCE 200809L
#include "wb.h"

#include <stdio.h>
#include <time.h>

static void slow_step(void *context) {
  (void)context;
  struct timespec pause = {1, 100000000};
  nanosleep(&pause, NULL);
}

int main(void) {
  double ms = wb_time_host_ms(slow_step, NULL, 0, 4);
  printf("median %.0f ms\n", ms);
  return 0;
}
