/* Lesson 14: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one multiprocessor (SM) holds, from cudaDeviceGetAttribute; the two units are the
 * occupancy calculator's (no attribute gives them). */
typedef struct {
  int warp_size;          /* cudaDevAttrWarpSize: 32 */
  int max_threads_per_sm; /* cudaDevAttrMaxThreadsPerMultiProcessor: 2048 on an H100 */
  int max_blocks_per_sm;  /* cudaDevAttrMaxBlocksPerMultiprocessor: 32 */
  int registers_per_sm;   /* cudaDevAttrMaxRegistersPerMultiprocessor: 65536 */
  int register_unit;      /* a warp's registers are allocated in units of 256 */
  int shared_per_sm;      /* cudaDevAttrMaxSharedMemoryPerMultiprocessor: 233472 */
  int shared_per_block;   /* cudaDevAttrMaxSharedMemoryPerBlock: 49152 */
  int shared_reserved;    /* cudaDevAttrReservedSharedMemoryPerBlock: 1024 */
  int shared_unit;        /* a block's shared memory is allocated in units of 128 bytes */
} sm_limits;

/* Task 1: how many blocks of `threads` threads, each with `shared_bytes` of shared memory and
 * `registers` registers per thread, one SM holds at once (0 when one block does not fit). */
int blocks_per_sm(const sm_limits *sm, int threads, int shared_bytes, int registers);

/* The probe kernel (given): the runtime's answer for it, and its registers per thread. */
cudaError_t probe_occupancy(int threads, int shared_bytes, int *blocks);
int probe_registers(void);

/* The block and grid a launch used. */
typedef struct {
  int block, grid;
} launch_shape;

/* Task 2: y = a * x + y over n floats, in blocks of the size cudaOccupancyMaxPotentialBlockSize
 * chooses; the shape it launched goes to *shape. Queues the kernel and returns the launch
 * status; does not wait. */
cudaError_t saxpy(float a, const float *d_x, float *d_y, int n, launch_shape *shape);
/* The same kernel (task 3) with a given shape (given: the profiler's fixed launch). */
cudaError_t saxpy_shaped(float a, const float *d_x, float *d_y, int n, launch_shape shape);

/* The runtime's blocks per SM for saxpy_kernel (given). */
cudaError_t saxpy_occupancy(int threads, int *blocks);

/* The CPU references (reference.c): saxpy, and the blocks per SM that CUDA's occupancy
 * calculator gives (partitions: 1 to split the register file among the SM's 4 schedulers as
 * cuda_occupancy.h does, 0 for the README's rule). */
void saxpy_reference(float a, const float *x, float *y, int n);
int occupancy_reference(const sm_limits *sm, int threads, int shared_bytes, int registers,
                        int partitions);

#ifdef __cplusplus
}
#endif

#endif
