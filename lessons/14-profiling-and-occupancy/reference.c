/* Lesson 14: the CPU references: saxpy as a plain loop, and the occupancy calculator. */
#include "lesson.h"

void saxpy_reference(float a, const float *x, float *y, int n) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

/* What CUDA's occupancy calculator (cuda_occupancy.h) computes for a compute capability 9.0 SM,
 * with the limits read from the device. One step goes beyond the README's table: the register
 * file is split among the SM's 4 schedulers (sub-partitions), each holding whole warps, so the
 * warps that registers allow are rounded down to a multiple of 4. Check 1's rows with given
 * registers avoid the counts where that step changes the answer (main.c), so the README's
 * rule is enough for task 1, and a learner who adds the step still passes. */
enum { SUB_PARTITIONS = 4, REGISTERS_PER_BLOCK = 65536, MAX_REGISTERS_PER_THREAD = 255 };

static int round_up(int value, int unit) {
  return (value + unit - 1) / unit * unit;
}

static int smaller(int a, int b) {
  return a < b ? a : b;
}

int occupancy_reference(const sm_limits *sm, int threads, int shared_bytes, int registers,
                        int partitions) {
  if (threads <= 0 || threads > 1024 || shared_bytes < 0 || shared_bytes > sm->shared_per_block ||
      registers < 0 || registers > MAX_REGISTERS_PER_THREAD)
    return 0;
  int warps = round_up(threads, sm->warp_size) / sm->warp_size;
  int blocks = smaller(sm->max_blocks_per_sm, sm->max_threads_per_sm / sm->warp_size / warps);
  int per_warp = round_up(registers * sm->warp_size, sm->register_unit);
  if (per_warp > 0) {
    if (per_warp * warps > REGISTERS_PER_BLOCK) return 0; /* the launch itself would fail */
    int by_registers =
        partitions ? sm->registers_per_sm / SUB_PARTITIONS / per_warp * SUB_PARTITIONS / warps
                   : sm->registers_per_sm / per_warp / warps;
    blocks = smaller(blocks, by_registers);
  }
  int per_block = round_up(shared_bytes, sm->shared_unit) + sm->shared_reserved;
  return smaller(blocks, sm->shared_per_sm / per_block);
}
