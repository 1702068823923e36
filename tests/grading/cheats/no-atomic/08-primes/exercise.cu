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
  int divisible = 0;
  for (int divisor = 2; divisor <= number / 2; ++divisor) {
    if (number % divisor == 0) {
      divisible = 1;
      break; /* the break the Python original forgot: one divisor is enough */
    }
  }
  result[0] = divisible ? 0 : number;
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
  if (number < 2) return 0;
  if (number % 2 == 0) return number == 2;
  for (int divisor = 3; divisor * divisor <= number; divisor += 2)
    if (number % divisor == 0) return 0;
  return 1;
  // ---- end of task 2 ----------------------------------------------------------------------------
}

__global__ void primes_kernel(unsigned char *flags, int n, unsigned int *count) {
  unsigned int my_primes = 0; /* primes this thread found: counted here, added once at the end */
  // ---- task 3: one thread per number, with a grid-stride loop -----------------------------------
  int stride = gridDim.x * blockDim.x;
  for (int number = blockIdx.x * blockDim.x + threadIdx.x; number < n; number += stride) {
    int prime = is_prime(number);
    flags[number] = (unsigned char)prime;
    my_primes += (unsigned int)prime;
  }
  // ---- end of task 3 ----------------------------------------------------------------------------
  // ---- task 4: one shared count, with an atomic -------------------------------------------------
  if (my_primes > 0) *count += my_primes;
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
