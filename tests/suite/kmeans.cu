// k-means clustering, the usual way a GPU benchmark splits it: the GPU assigns every point to its
// nearest centre, the host moves the centres, until no point changes cluster. The memberships
// are bytes (`unsigned char`, one a thread, neighbouring in memory), each block marks its changed
// points in a `__shared__ bool` array and keeps their new clusters in a `__shared__ short` array
// (again one element a thread), and a __device__ function with its own `__shared__` total counts
// them. Coordinates are whole numbers, so every distance, mean and choice is exact, and the CPU
// runs the same iterations. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define POINTS 12288
#define DIM 3
#define K 12
#define BLOCK 128
#define BLOCKS (POINTS / BLOCK)
#define MAX_ITERATIONS 50

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL kmeans: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);          \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__device__ __host__ inline int nearest_centre(const int *point, const int *centres) {
  int best = 0, best_d = 0x7fffffff;
  for (int c = 0; c < K; c++) {
    int d = 0;
    for (int k = 0; k < DIM; k++) {
      int diff = point[k] - centres[c * DIM + k];
      d += diff * diff;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

// How many of the block's flags are set: thread 0 counts them into a __shared__ total.
__device__ int count_flags(const bool *flags) {
  __shared__ int total;
  if (threadIdx.x == 0) {
    int n = 0;
    for (int t = 0; t < BLOCK; t++) n += flags[t];
    total = n;
  }
  __syncthreads();
  return total;
}

__global__ void assign(const int *points, const int *centres, unsigned char *membership,
                       short *moved_to, int *changed) {
  __shared__ bool moved[BLOCK];
  __shared__ short cluster[BLOCK];
  int t = threadIdx.x, p = blockIdx.x * BLOCK + t;
  int c = nearest_centre(points + p * DIM, centres);
  moved[t] = membership[p] != c;
  cluster[t] = (short)c;
  membership[p] = (unsigned char)c;
  __syncthreads();
  int n = count_flags(moved);
  // The block's last thread reports the moves, its neighbour in the warp the first one's cluster.
  if (t == BLOCK - 1) changed[blockIdx.x] = n;
  if (t == BLOCK - 2) moved_to[blockIdx.x] = cluster[0];
}

// New centres: the integer mean of each cluster (a centre with no points stays where it is).
static void move_centres(const int *points, const unsigned char *membership, int *centres) {
  long long sum[K * DIM] = {0};
  int count[K] = {0};
  for (int p = 0; p < POINTS; p++) {
    count[membership[p]]++;
    for (int k = 0; k < DIM; k++) sum[membership[p] * DIM + k] += points[p * DIM + k];
  }
  for (int c = 0; c < K; c++) {
    if (count[c] == 0) continue;
    for (int k = 0; k < DIM; k++) centres[c * DIM + k] = (int)(sum[c * DIM + k] / count[c]);
  }
}

int main(void) {
  static int points[POINTS * DIM];
  static unsigned char membership[POINTS], cpu_membership[POINTS];
  int centres[K * DIM], cpu_centres[K * DIM], changed[BLOCKS];
  short moved_to[BLOCKS];
  unsigned seed = 1234u;
  for (int p = 0; p < POINTS; p++) {
    seed = seed * 1664525u + 1013904223u;
    int blob = (int)((seed >> 8) % K); // points gather around K blobs
    for (int k = 0; k < DIM; k++) {
      seed = seed * 1664525u + 1013904223u;
      points[p * DIM + k] = blob * 70 * (k + 1) % 1000 + (int)((seed >> 8) % 200);
    }
  }
  for (int c = 0; c < K; c++) {
    for (int k = 0; k < DIM; k++)
      centres[c * DIM + k] = cpu_centres[c * DIM + k] = points[c * DIM + k];
  }
  for (int p = 0; p < POINTS; p++) membership[p] = cpu_membership[p] = 0;

  int *d_points, *d_centres, *d_changed;
  unsigned char *d_membership;
  short *d_moved_to;
  CHECK(cudaMalloc((void **)&d_points, sizeof points));
  CHECK(cudaMalloc((void **)&d_centres, sizeof centres));
  CHECK(cudaMalloc((void **)&d_changed, sizeof changed));
  CHECK(cudaMalloc((void **)&d_membership, sizeof membership));
  CHECK(cudaMalloc((void **)&d_moved_to, sizeof moved_to));
  CHECK(cudaMemcpy(d_points, points, sizeof points, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_membership, membership, sizeof membership, cudaMemcpyHostToDevice));

  int iterations = 0, cpu_iterations = 0, wrong = 0, moves;
  do {
    CHECK(cudaMemcpy(d_centres, centres, sizeof centres, cudaMemcpyHostToDevice));
    assign<<<BLOCKS, BLOCK>>>(d_points, d_centres, d_membership, d_moved_to, d_changed);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(changed, d_changed, sizeof changed, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(moved_to, d_moved_to, sizeof moved_to, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(membership, d_membership, sizeof membership, cudaMemcpyDeviceToHost));
    moves = 0;
    for (int b = 0; b < BLOCKS; b++) {
      moves += changed[b];
      wrong += moved_to[b] != membership[b * BLOCK];
    }
    move_centres(points, membership, centres);
    iterations++;
  } while (moves > 0 && iterations < MAX_ITERATIONS);

  // The CPU: the same iterations.
  int cpu_moves;
  do {
    cpu_moves = 0;
    for (int p = 0; p < POINTS; p++) {
      int c = nearest_centre(points + p * DIM, cpu_centres);
      cpu_moves += cpu_membership[p] != c;
      cpu_membership[p] = (unsigned char)c;
    }
    move_centres(points, cpu_membership, cpu_centres);
    cpu_iterations++;
  } while (cpu_moves > 0 && cpu_iterations < MAX_ITERATIONS);

  wrong += iterations != cpu_iterations;
  for (int p = 0; p < POINTS; p++) wrong += membership[p] != cpu_membership[p];
  for (int i = 0; i < K * DIM; i++) wrong += centres[i] != cpu_centres[i];
  if (wrong == 0) {
    printf("PASS kmeans: %d points in %d clusters after %d iterations, as the CPU's\n", POINTS, K,
           iterations);
  } else {
    printf("FAIL kmeans: %d memberships, centres or counts differ from the CPU's\n", wrong);
  }
  cudaFree(d_points);
  cudaFree(d_centres);
  cudaFree(d_changed);
  cudaFree(d_membership);
  cudaFree(d_moved_to);
  return wrong == 0 ? 0 : 1;
}
