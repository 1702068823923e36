/* The simulator's profiler, for programs and drivers (C and C++): counts of what a GPU would do
 * with a kernel's accesses (runtime/profile.cpp). Only a simulator build has it; the workbook's
 * harness wraps it (wb_profile_*), so lesson drivers use that instead. */
#ifndef CUSIM_PROFILE_H
#define CUSIM_PROFILE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Counts of the launches in a window, with Nsight Compute's definitions. */
struct cusim_profile_counts {
  unsigned long long launches, blocks;
  unsigned long long global_load_requests, global_load_sectors, global_load_ideal_sectors;
  unsigned long long global_store_requests, global_store_sectors, global_store_ideal_sectors;
  unsigned long long shared_load_requests, shared_load_wavefronts, shared_load_ideal_wavefronts;
  unsigned long long shared_store_requests, shared_store_wavefronts, shared_store_ideal_wavefronts;
  unsigned long long bank_conflicts;         /* wavefronts past the ideal, loads and stores */
  unsigned long long requests, active_lanes; /* every request, and the lanes active in them */
  unsigned long long atomics;                /* atomic operations (one per lane) */
  unsigned long long barriers;               /* __syncthreads() executed, summed over blocks */
  int registers, registers_known;            /* per thread; known: from nvcc, not assumed */
  double occupancy; /* theoretical, 0 to 1, of the window's last launch on an H100 */
  /* Conditions of device code (if, loop tests) executed, once per warp, and those whose active
   * lanes did not all go the same way (Nsight Compute's divergent branches). */
  unsigned long long branches, divergent_branches;
};

/* Counts every launch from now on and prints the report when the program exits (what
 * CUSIM_PROFILE=1 does). Returns 1. */
int cusim_profile_enable(void);
/* 1 when the program's kernels are instrumented (a simulator build with the memory checker). */
int cusim_profile_available(void);
/* Starts a window: cusim_profile_end counts the launches made after this call. */
void cusim_profile_begin(void);
/* Waits for the device, then sums the window's launches of `kernel` (its name as launched,
 * template arguments aside; NULL: every kernel) into *out. Returns 1 when counted, 0 when the
 * profiler could not count (no instrumentation). */
int cusim_profile_end(const char *kernel, struct cusim_profile_counts *out);

#ifdef __cplusplus
}
#endif
#endif
