/* Parses the uniform flags and prints them, so tests can drive wb_parse_args from the shell. */
#include "wb.h"

#include <stdio.h>

int main(int argc, char **argv) {
  const wb_program program = {
      "args-probe", "print the parsed flags", 1000, 1, 1000000000, "elements", 3, 1, 0};
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  printf("n=%lld seed=%llu repeat=%d quiet=%d threads=%d\n", args.n, (unsigned long long)args.seed,
         args.repeat, args.quiet, args.cpu_threads);
  return 0;
}
