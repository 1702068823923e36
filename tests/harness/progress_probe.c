/* Times runs of a host step and says how many calls it made: "calls N median M ms".
 *   progress_probe            four runs of a 1.1 s step: past 3 s the timing loop must say how
 *                             far it is (on stderr)
 *   progress_probe WARMUP     WARMUP warm-up runs and 2 timed runs of an instant step: 2 + WARMUP
 *                             calls, or under a sanitizer none (with a warm-up) or one (without) */
#define _POSIX_C_SOURCE 200809L
#include "wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int calls;

static void slow_step(void *context) {
  (void)context;
  struct timespec pause = {1, 100000000};
  nanosleep(&pause, NULL);
  ++calls;
}

static void instant_step(void *context) {
  (void)context;
  ++calls;
}

int main(int argc, char **argv) {
  double ms;
  if (argc > 1)
    ms = wb_time_host_ms(instant_step, NULL, atoi(argv[1]), 2);
  else
    ms = wb_time_host_ms(slow_step, NULL, 0, 4);
  printf("calls %d median %.0f ms (%s)\n", calls, ms,
         wb_sanitizer() ? wb_sanitizer() : "no sanitizer");
  return 0;
}
