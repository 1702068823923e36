// The warp reductions of sm_80 and later (NVIDIA's reduction sample uses __reduce_add_sync where
// __CUDA_ARCH__ >= 800): every lane of the mask gets the sum, minimum, maximum (of an int or an
// unsigned), AND, OR or XOR of the mask's lanes, over a full warp and over the lanes a ballot
// picked. Needs sm_80 or later on a GPU.
#include <cuda_runtime.h>
#include <stdio.h>

#define THREADS 64
#define FIELDS 9

__device__ int signed_value(int t) {
  return (t * 37) % 101 - 50;
}

// Per thread: 0 add, 1 min, 2 max (int), 3 min, 4 max (unsigned), 5 and, 6 or, 7 xor over its
// warp; 8 the sum over the lanes below 8 of its warp (the others write -1).
__global__ void reduce_facts(int *facts) {
  int t = threadIdx.x;
  int v = signed_value(t);
  unsigned u = (unsigned)(t * 2654435761u);
  int *mine = facts + t * FIELDS;
  mine[0] = __reduce_add_sync(0xffffffffu, v);
  mine[1] = __reduce_min_sync(0xffffffffu, v);
  mine[2] = __reduce_max_sync(0xffffffffu, v);
  mine[3] = (int)__reduce_min_sync(0xffffffffu, u);
  mine[4] = (int)__reduce_max_sync(0xffffffffu, u);
  mine[5] = (int)__reduce_and_sync(0xffffffffu, u);
  mine[6] = (int)__reduce_or_sync(0xffffffffu, u);
  mine[7] = (int)__reduce_xor_sync(0xffffffffu, u);
  unsigned low = __ballot_sync(0xffffffffu, t % 32 < 8);
  mine[8] = t % 32 < 8 ? __reduce_add_sync(low, v) : -1;
}

static int value_on_host(int t) {
  return (t * 37) % 101 - 50;
}

int main(void) {
  int *facts;
  if (cudaMallocManaged(&facts, THREADS * FIELDS * sizeof(int)) != cudaSuccess) {
    printf("FAIL warp_reduce_sync: cudaMallocManaged\n");
    return 1;
  }
  reduce_facts<<<1, THREADS>>>(facts);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("FAIL warp_reduce_sync: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int wrong = 0;
  for (int t = 0; t < THREADS; t++) {
    int first = t - t % 32, sum = 0, low_sum = 0, smin = 1 << 30, smax = -(1 << 30);
    unsigned umin = 0xffffffffu, umax = 0, uand = 0xffffffffu, uor = 0, uxor = 0;
    for (int w = first; w < first + 32; w++) {
      int v = value_on_host(w);
      unsigned u = (unsigned)(w * 2654435761u);
      sum += v, smin = v < smin ? v : smin, smax = v > smax ? v : smax;
      umin = u < umin ? u : umin, umax = u > umax ? u : umax;
      uand &= u, uor |= u, uxor ^= u;
      if (w - first < 8) {
        low_sum += v;
      }
    }
    int want[FIELDS] = {sum,       smin,      smax,
                        (int)umin, (int)umax, (int)uand,
                        (int)uor,  (int)uxor, t % 32 < 8 ? low_sum : -1};
    for (int f = 0; f < FIELDS; f++) {
      if (facts[t * FIELDS + f] != want[f] && wrong++ < 4) {
        printf("FAIL warp_reduce_sync: thread %d, fact %d: %d, want %d\n", t, f,
               facts[t * FIELDS + f], want[f]);
      }
    }
  }
  cudaFree(facts);
  if (wrong == 0) {
    printf("PASS warp_reduce_sync: 8 reductions over 2 warps, and one over 8 lanes\n");
  }
  return wrong != 0;
}
