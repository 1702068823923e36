// Barrier-heavy benchmark: a shared-memory tiled matrix multiply the size of the CUDA samples'
// matrixMul (A 320 x 320, B 320 x 640, 32 x 32 tiles: 200 blocks of 1,024 threads, two
// __syncthreads per tile), repeated. Prints wall and process CPU time and checks the result.
// Usage: sim_bench_matmul [--repeat R] (default 300)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#define TILE 32

__global__ void matmul(float *c, const float *a, const float *b, int wa, int wb) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0.0f;
  for (int t = 0; t < wa / TILE; ++t) {
    as[ty][tx] = a[(by * TILE + ty) * wa + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * wb + bx * TILE + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[(by * TILE + ty) * wb + bx * TILE + tx] = sum;
}

static double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  int repeat = 300;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
  const int ha = 320, wa = 320, wb = 640;
  std::vector<float> a((size_t)ha * wa), b((size_t)wa * wb), c((size_t)ha * wb);
  for (size_t i = 0; i < a.size(); ++i) a[i] = (float)(i % 7) * 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = (float)(i % 5) * 0.25f;
  float *da, *db, *dc;
  cudaMalloc((void **)&da, a.size() * sizeof(float));
  cudaMalloc((void **)&db, b.size() * sizeof(float));
  cudaMalloc((void **)&dc, c.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(wb / TILE, ha / TILE);
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_seconds();
  for (int r = 0; r < repeat; ++r) matmul<<<grid, block>>>(dc, da, db, wa, wb);
  cudaError_t e = cudaDeviceSynchronize();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = cpu_seconds() - c0;
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  for (int i = 0; i < ha && ok; i += 7) {
    for (int j = 0; j < wb && ok; j += 11) {
      double want = 0.0;
      for (int k = 0; k < wa; ++k) want += (double)a[(size_t)i * wa + k] * b[(size_t)k * wb + j];
      ok = std::abs(c[(size_t)i * wb + j] - want) <= 1e-3 * std::abs(want) + 1e-3;
    }
  }
  double crossings = (double)repeat * grid.x * grid.y * TILE * TILE * 2 * (wa / TILE);
  std::printf("matmul %dx%d by %dx%d, %d repetitions: %.2f s wall, %.2f s CPU (%s); %.1f million "
              "barrier crossings per CPU-second\n",
              ha, wa, wa, wb, repeat, wall, cpu, ok ? "correct" : "WRONG", crossings / cpu / 1e6);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return ok ? 0 : 1;
}
