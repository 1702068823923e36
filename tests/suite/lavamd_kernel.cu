// lavamd: the kernel and its launch. One block per box, one thread per particle; the block stages
// its neighbour box in shared memory and every thread sums over it.
#include <cuda_runtime.h>
#include <stdio.h>

#include "lavamd.h"

__device__ float pair_potential(Particle a, Particle b); // lavamd_pair.cu

__global__ void box_potential(const Particle *particles, float *potential) {
  __shared__ Particle other[PER_BOX];
  int box = blockIdx.x, t = threadIdx.x;
  Particle me = particles[box * PER_BOX + t];
  float sum = 0;
  for (int nb = box - 1; nb <= box + 1; nb++) {
    if (nb < 0 || nb >= BOXES) continue; // uniform across the block
    other[t] = particles[nb * PER_BOX + t];
    __syncthreads();
    for (int j = 0; j < PER_BOX; j++) sum += pair_potential(me, other[j]);
    __syncthreads();
  }
  potential[box * PER_BOX + t] = sum;
}

extern "C" int lavamd_gpu(const Particle *particles, float *potential) {
  Particle *d_particles;
  float *d_potential;
  cudaError_t err = cudaMalloc((void **)&d_particles, PARTICLES * sizeof(Particle));
  if (err == cudaSuccess) err = cudaMalloc((void **)&d_potential, PARTICLES * sizeof(float));
  if (err == cudaSuccess)
    err = cudaMemcpy(d_particles, particles, PARTICLES * sizeof(Particle), cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    box_potential<<<BOXES, PER_BOX>>>(d_particles, d_potential);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaMemcpy(potential, d_potential, PARTICLES * sizeof(float), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("FAIL lavamd: %s\n", cudaGetErrorString(err));
    return -1;
  }
  cudaFree(d_particles);
  cudaFree(d_potential);
  return 0;
}
