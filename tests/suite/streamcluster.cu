// Local search for facility locations (the loop of a stream-clustering benchmark): many short
// rounds, each of which copies a candidate centre to the GPU, launches a kernel that measures
// what every point would save by moving to it (a block reduction with barriers) and marks the
// points that would move in a `char` array (neighbouring threads, neighbouring bytes), copies
// the blocks' sums back, and, when opening the candidate pays, launches a second kernel that
// moves the marked points. Coordinates and costs are whole numbers, so every decision is the
// CPU's. Prints one PASS or FAIL line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define POINTS 2048
#define DIM 4
#define BLOCK 128
#define BLOCKS (POINTS / BLOCK)
#define ROUNDS 300
#define OPEN_COST 2000000

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL streamcluster: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);   \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__device__ __host__ inline int distance2(const int *a, const int *b) {
  int d = 0;
  for (int k = 0; k < DIM; k++) d += (a[k] - b[k]) * (a[k] - b[k]);
  return d;
}

__global__ void gain(const int *points, const int *cost, const int *candidate, char *moves,
                     int *block_gain) {
  __shared__ int s_gain[BLOCK];
  int t = threadIdx.x, p = blockIdx.x * BLOCK + t;
  int d = distance2(points + p * DIM, candidate);
  int saving = cost[p] - d;
  moves[p] = saving > 0;
  s_gain[t] = saving > 0 ? saving : 0;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) s_gain[t] += s_gain[t + stride];
    __syncthreads();
  }
  if (t == 0) block_gain[blockIdx.x] = s_gain[0];
}

__global__ void move(const int *points, const int *candidate, const char *moves, int *cost,
                     int *assign, int centre) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (moves[p]) {
    cost[p] = distance2(points + p * DIM, candidate);
    assign[p] = centre;
  }
}

int main(void) {
  static int points[POINTS * DIM], cost[POINTS], assign[POINTS];
  static int cpu_cost[POINTS], cpu_assign[POINTS];
  unsigned seed = 4242u;
  for (int i = 0; i < POINTS * DIM; i++) {
    seed = seed * 1664525u + 1013904223u;
    points[i] = (int)((seed >> 12) % 1000);
  }
  // Start with one centre, point 0.
  for (int p = 0; p < POINTS; p++) {
    cost[p] = cpu_cost[p] = distance2(points + p * DIM, points);
    assign[p] = cpu_assign[p] = 0;
  }
  int *d_points, *d_cost, *d_assign, *d_candidate, *d_block_gain;
  char *d_moves;
  CHECK(cudaMalloc((void **)&d_points, sizeof points));
  CHECK(cudaMalloc((void **)&d_cost, sizeof cost));
  CHECK(cudaMalloc((void **)&d_assign, sizeof assign));
  CHECK(cudaMalloc((void **)&d_candidate, DIM * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_block_gain, BLOCKS * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_moves, POINTS));
  CHECK(cudaMemcpy(d_points, points, sizeof points, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cost, cost, sizeof cost, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_assign, assign, sizeof assign, cudaMemcpyHostToDevice));

  int opened = 1, cpu_opened = 1, wrong_rounds = 0;
  int block_gain[BLOCKS];
  for (int round = 0; round < ROUNDS; round++) {
    seed = seed * 1664525u + 1013904223u;
    int c = (int)((seed >> 8) % POINTS);
    CHECK(cudaMemcpy(d_candidate, points + c * DIM, DIM * sizeof(int), cudaMemcpyHostToDevice));
    gain<<<BLOCKS, BLOCK>>>(d_points, d_cost, d_candidate, d_moves, d_block_gain);
    CHECK(cudaMemcpy(block_gain, d_block_gain, sizeof block_gain, cudaMemcpyDeviceToHost));
    long long total = 0;
    for (int b = 0; b < BLOCKS; b++) total += block_gain[b];
    if (total > OPEN_COST) {
      move<<<BLOCKS, BLOCK>>>(d_points, d_candidate, d_moves, d_cost, d_assign, c);
      CHECK(cudaGetLastError());
      opened++;
    }
    // The same round on the CPU.
    long long cpu_total = 0;
    for (int p = 0; p < POINTS; p++) {
      int s = cpu_cost[p] - distance2(points + p * DIM, points + c * DIM);
      if (s > 0) cpu_total += s;
    }
    if (cpu_total > OPEN_COST) {
      for (int p = 0; p < POINTS; p++) {
        int d = distance2(points + p * DIM, points + c * DIM);
        if (d < cpu_cost[p]) {
          cpu_cost[p] = d;
          cpu_assign[p] = c;
        }
      }
      cpu_opened++;
    }
    wrong_rounds += total != cpu_total;
  }
  CHECK(cudaMemcpy(cost, d_cost, sizeof cost, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(assign, d_assign, sizeof assign, cudaMemcpyDeviceToHost));
  int wrong = wrong_rounds + (opened != cpu_opened);
  for (int p = 0; p < POINTS; p++) wrong += cost[p] != cpu_cost[p] || assign[p] != cpu_assign[p];
  if (wrong == 0) {
    printf("PASS streamcluster: %d rounds, %d centres opened, every cost as the CPU's\n", ROUNDS,
           opened);
  } else {
    printf("FAIL streamcluster: %d rounds or points differ from the CPU's\n", wrong);
  }
  cudaFree(d_points);
  cudaFree(d_cost);
  cudaFree(d_assign);
  cudaFree(d_candidate);
  cudaFree(d_block_gain);
  cudaFree(d_moves);
  return wrong == 0 ? 0 : 1;
}
