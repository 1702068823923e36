/* Lesson 08: primes, one thread per number.
 *
 * The Python original's first try launched a kernel of ONE thread for EACH number, from a loop on
 * the host, and its kernel called every number from 2 to 9 prime. The first half of this file keeps
 * that design (fix the bug in it, task 1); the second half does the work the GPU's way: one thread
 * per number, a better divisor loop, and one shared count (tasks 2 to 4).
 *
 * Check your work with:  ./workbook check 08
 * (or: ctest --test-dir build -L lesson08 --output-on-failure).
 */
#include "lesson.h"

/* ---- The Python original's way: one launch per number ------------------------------------- */

/* The Python original's kernel in CUDA C. ONE thread tests ONE number and leaves the answer in
 * result[0]: the number itself when it is prime, 0 when it is not. The Python original wrote the
 * loop as Python's `for ... else`, whose else branch runs whenever the loop ends without a `break`;
 * its loop had no break, so the else ran every time and overwrote the answer. */
__global__ void check_one_number(int number, int *result) {
  // ---- task 1: the Python original's for...else bug
  // --------------------------------------------------------
  // TODO: as translated here, result[0] = number runs after the loop whatever the loop found, so
  //       every number is reported prime. Store the number only when no divisor was found, and 0
  //       otherwise; stop at the first divisor. Keep the loop going up to number / 2: this kernel
  //       is about the bug, not about speed.
  for (int divisor = 2; divisor <= number / 2; ++divisor)
    if (number % divisor == 0) result[0] = 0;
  result[0] =
      number; /* the Python original's `else:` -- the loop never breaks, so this always runs */
  // ---- end of task 1 ----------------------------------------------------------------------------
}

cudaError_t primes_one_launch_per_number(unsigned char *flags, int count) {
  int *d_result = NULL;
  cudaError_t status = cudaMalloc((void **)&d_result, sizeof(int));
  for (int number = 0; number < count && status == cudaSuccess; ++number) {
    if (number < 2) { /* the Python original's loop started at 2 */
      flags[number] = 0;
      continue;
    }
    int result = 0;
    status = cudaMemcpy(d_result, &result, sizeof result, cudaMemcpyHostToDevice);
    if (status != cudaSuccess) break;
    check_one_number<<<1, 1>>>(number, d_result); /* a whole GPU, one thread busy */
    status = cudaGetLastError();
    if (status != cudaSuccess) break;
    status = cudaMemcpy(&result, d_result, sizeof result, cudaMemcpyDeviceToHost); /* waits */
    flags[number] = result > 0;
  }
  cudaFree(d_result);
  return status;
}

/* ---- The GPU's way: one thread per number ---------------------------------------------------- */

/* 1 when number is prime, 0 when not. Every composite has a divisor no larger than its square
 * root, and every even number above 2 is composite, so only odd divisors up to the root are tried.
 * divisor * divisor cannot overflow: the driver keeps n <= 2^30, so divisor stays below 2^15 + 2.
 */
__device__ int is_prime(int number) {
  // ---- task 2: trial division, done well --------------------------------------------------------
  // TODO: return 1 when number is prime, 0 when not. 0 and 1 are not prime; 2 is the only even
  //       prime; after that, try odd divisors only (3, 5, 7, ...) and stop as soon as
  //       divisor * divisor > number.
  (void)number;
  return 0;
  // ---- end of task 2 ----------------------------------------------------------------------------
}

__global__ void primes_kernel(unsigned char *flags, int n, unsigned int *count) {
  unsigned int my_primes = 0; /* primes this thread found: counted here, added once at the end */
  // ---- task 3: one thread per number, with a grid-stride loop -----------------------------------
  // TODO: a grid-stride loop: start at this thread's global index, step by the number of threads
  //       in the whole grid, stop at n. For each number store is_prime(number) in flags[number]
  //       and add it to my_primes.
  (void)flags, (void)n;
  // ---- end of task 3 ----------------------------------------------------------------------------
  // ---- task 4: one shared count, with an atomic -------------------------------------------------
  // TODO: add my_primes to *count. Thousands of threads do this at the same moment, and a plain
  //       *count += my_primes loses updates when they collide; atomicAdd does not. One atomic per
  //       thread, not one per number.
  (void)count, (void)&my_primes; /* stand-ins: "not used yet" (nvcc wants the &) */
  // ---- end of task 4 ----------------------------------------------------------------------------
}

cudaError_t primes_on_device(unsigned char *d_flags, int n, unsigned int *d_count) {
  cudaError_t status = cudaMemset(d_count, 0, sizeof *d_count); /* the kernel only adds to it */
  if (status != cudaSuccess) return status;
  /* Enough blocks to fill every SM (8 blocks of 256 threads each), not one thread per number:
   * the grid-stride loop hands each thread several numbers, interleaved, so the expensive large
   * numbers are spread over all threads. */
  int multiprocessors = 1;
  status = cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  if (status != cudaSuccess) return status;
  int threads_per_block = 256;
  int blocks = (n + threads_per_block - 1) / threads_per_block;
  if (blocks > 8 * multiprocessors) blocks = 8 * multiprocessors;
  primes_kernel<<<blocks, threads_per_block>>>(d_flags, n, d_count);
  return cudaGetLastError();
}
