// Vectorized loads and stores (float4, float2, int4), written the ways CUDA C writes them.
// Included by vector_loads.cu (a program of the corpus, also built by nvcc) and by
// ../profile_cases.cu (the profiler's exact counts for each). On a GPU each vector access is one
// instruction (LDG.128, STG.64, ...) whose request covers 16 or 8 bytes a lane.
#ifndef VECTOR_KERNELS_CUH
#define VECTOR_KERNELS_CUH

// Four floats a thread through a float4 view of a float array, summed field by field.
__global__ void sum_float4(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(x)[i];
  out[i] = v.x + v.y + v.z + v.w;
}

// Load a float4, change each field, store it back elsewhere.
__global__ void scale_float4(const float4 *in, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  v.x *= 2.0f;
  v.y *= 2.0f;
  v.z *= 2.0f;
  v.w *= 2.0f;
  out[i] = v;
}

// The same with two floats a thread, through a C-style cast.
__global__ void scale_float2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 v = ((const float2 *)in)[i];
  v.x *= 2.0f;
  v.y *= 2.0f;
  ((float2 *)out)[i] = v;
}

// One int4 store a thread, built with make_int4.
__global__ void store_int4(int4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = make_int4(4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3);
}

// Every other float4: each lane's 16 bytes in a 32-byte sector of their own.
__global__ void stride2_float4(const float4 *in, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[2 * i];
  v.x += 1.0f;
  v.w += 1.0f;
  out[i] = v;
}

// float4 through shared memory: each thread stores one, then reads its mirror's.
__global__ void mirror_float4(const float4 *in, float4 *out) {
  __shared__ float4 tile[64];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float4 v = tile[63 - threadIdx.x];
  v.y -= 1.0f;
  out[threadIdx.x] = v;
}

#endif
