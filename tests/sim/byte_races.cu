// The memory checker at byte granularity (runtime/instrument.cpp, issue 27): threads that use
// neighbouring bytes, shorts or vector lanes of one 4-byte word never race, in global and in
// __shared__ memory; a true race on one byte is still found. Usage: byte_races CASE; prints
// "CASE: ok" when the kernel ran without error and its result is the GPU's, else the error's name.
// nvcc builds this file too (unit.sim.byte_races.builds_with_nvcc).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// ---- neighbouring elements, each its own thread's: no race ------------------------------------
// bfs's step: thread t reads its own bool flags and clears them while its neighbours do the same
// with the bytes beside them (a GPU writes single bytes: st.global.u8).
__global__ void bfs_bools(bool *mask, bool *updating, bool *visited, int *cost, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && mask[t]) {
    mask[t] = false;
    visited[t] = true;
    updating[t] = cost[t] % 2 == 0;
  }
}
__global__ void chars_inc(char *c) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  c[t] = (char)(c[t] + 1);
}
__global__ void shorts_inc(short *s) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = (short)(s[t] * 3);
}
// Lanes of a vector: thread t owns lane t % 4 of char4 v[t / 4], and half t % 2 of short2 (the
// layout of half2).
__global__ void char4_lanes(char4 *v) {
  int t = threadIdx.x;
  char4 *p = &v[t / 4];
  switch (t % 4) {
  case 0:
    p->x = (char)(p->x + t);
    break;
  case 1:
    p->y = (char)(p->y + t);
    break;
  case 2:
    p->z = (char)(p->z + t);
    break;
  default:
    p->w = (char)(p->w + t);
    break;
  }
}
__global__ void short2_lanes(short2 *v) {
  int t = threadIdx.x;
  if (t % 2 == 0)
    v[t / 2].x = (short)(v[t / 2].x + t);
  else
    v[t / 2].y = (short)(v[t / 2].y + t);
}
// The samples' 64-bin histogram: each thread counts into its own byte column of a __shared__
// table, then, after a barrier, thread b sums row b (bytes other threads wrote, read as bytes).
__global__ void histogram64(const unsigned char *data, int n, unsigned *hist) {
  __shared__ unsigned char counts[64 * 64];
  unsigned t = threadIdx.x;
  for (int b = 0; b < 64; ++b) counts[b * 64 + t] = 0;
  __syncthreads();
  for (int i = (int)t; i < n; i += 64) ++counts[(data[i] & 63) * 64 + t];
  __syncthreads();
  unsigned sum = 0;
  for (int k = 0; k < 64; ++k) sum += counts[t * 64 + k];
  hist[t] = sum;
}
// __shared__ bools and shorts: each thread updates its own (after a barrier: what it reads first
// was written by the thread beside it), a barrier, then each reads another's.
__global__ void shared_small(int *out) {
  __shared__ bool flag[64];
  __shared__ short val[64];
  unsigned t = threadIdx.x;
  flag[t] = t % 3 == 0;
  val[t] = (short)(t * 7);
  __syncthreads();
  if (flag[t]) val[t] = (short)(val[t] + 1);
  flag[t] = !flag[t];
  __syncthreads();
  unsigned o = (t + 1) % 64;
  out[t] = flag[o] ? val[o] : -val[o];
}
// A word written whole by one thread, then, after a barrier, its bytes by four threads.
__global__ void word_then_bytes(int *out) {
  __shared__ int word[16];
  unsigned t = threadIdx.x;
  if (t < 16) word[t] = 0x01010101 * (int)t;
  __syncthreads();
  unsigned char *b = (unsigned char *)word;
  b[t] = (unsigned char)(b[t] + 1);
  __syncthreads();
  if (t < 16) out[t] = word[t];
}

// ---- true races on one byte: found ----------------------------------------------------------
// Thread t writes byte t and reads byte t + 1, which thread t + 1 writes, with no barrier.
__global__ void byte_race_global(char *c, char *out) {
  unsigned t = threadIdx.x;
  c[t] = (char)t;
  out[t] = c[(t + 1) % 64];
}
__global__ void byte_race_shared(char *out) {
  __shared__ char s[64];
  unsigned t = threadIdx.x;
  s[t] = (char)t;
  out[t] = s[(t + 1) % 64];
}
// Bytes 0 and 1 of one word written by threads 0 and 1; thread 40 (another warp) reads byte 0:
// a race with thread 0, though thread 1 wrote the word's last byte.
__global__ void byte_race_split(char *c, char *out) {
  unsigned t = threadIdx.x;
  if (t < 2) c[t] = (char)(t + 1);
  if (t == 40) out[0] = c[0];
}
// Thread 0 writes a whole int; thread 33 reads one of its bytes with no barrier.
__global__ void byte_race_in_word(int *w, char *out) {
  unsigned t = threadIdx.x;
  if (t == 0) *w = 0x04030201;
  if (t == 33) out[0] = ((char *)w)[2];
}

static int finish(const char *name, bool right) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", name, cudaGetErrorName(e));
    return 1;
  }
  std::printf("%s: %s\n", name, right ? "ok" : "wrong result");
  return right ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  if (!std::strcmp(c, "bfs_bools")) {
    const int n = 1000;
    bool *mask, *updating, *visited;
    int *cost;
    cudaMallocManaged(&mask, n);
    cudaMallocManaged(&updating, n);
    cudaMallocManaged(&visited, n);
    cudaMallocManaged(&cost, n * sizeof(int));
    for (int i = 0; i < n; ++i) mask[i] = i % 3 != 0, updating[i] = visited[i] = false, cost[i] = i;
    bfs_bools<<<(n + 255) / 256, 256>>>(mask, updating, visited, cost, n);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < n; ++i)
      right = right && !mask[i] && visited[i] == (i % 3 != 0) &&
              updating[i] == (i % 3 != 0 && i % 2 == 0);
    return finish(c, right);
  }
  if (!std::strcmp(c, "chars") || !std::strcmp(c, "shorts")) {
    bool chars = c[0] == 'c';
    char *p;
    cudaMallocManaged(&p, 512 * 2);
    for (int i = 0; i < 512; ++i)
      if (chars)
        p[i] = (char)(i % 100);
      else
        ((short *)p)[i] = (short)i;
    if (chars)
      chars_inc<<<2, 256>>>(p);
    else
      shorts_inc<<<2, 256>>>((short *)p);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 512; ++i)
      right = right && (chars ? p[i] == (char)(i % 100 + 1) : ((short *)p)[i] == (short)(i * 3));
    return finish(c, right);
  }
  if (!std::strcmp(c, "char4_lanes")) {
    char4 *v;
    cudaMallocManaged(&v, 32 * sizeof(char4));
    std::memset(v, 1, 32 * sizeof(char4));
    char4_lanes<<<1, 64>>>(v);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 16; ++i)
      right = right && v[i].x == 4 * i + 1 && v[i].y == 4 * i + 2 && v[i].z == 4 * i + 3 &&
              v[i].w == 4 * i + 4;
    return finish(c, right);
  }
  if (!std::strcmp(c, "short2_lanes")) {
    short2 *v;
    cudaMallocManaged(&v, 64 * sizeof(short2));
    for (int i = 0; i < 64; ++i) v[i].x = v[i].y = 1000;
    short2_lanes<<<1, 128>>>(v);
    cudaDeviceSynchronize();
    bool right = true;
    for (int i = 0; i < 64; ++i) right = right && v[i].x == 1000 + 2 * i && v[i].y == 1001 + 2 * i;
    return finish(c, right);
  }
  if (!std::strcmp(c, "histogram64")) {
    const int n = 10000;
    unsigned char *data;
    unsigned *hist;
    cudaMallocManaged(&data, n);
    cudaMallocManaged(&hist, 64 * sizeof(unsigned));
    unsigned want[64] = {0};
    for (int i = 0; i < n; ++i) data[i] = (unsigned char)(i * 37 % 251), ++want[data[i] & 63];
    histogram64<<<1, 64>>>(data, n, hist);
    cudaDeviceSynchronize();
    bool right = true;
    for (int b = 0; b < 64; ++b) right = right && hist[b] == want[b];
    return finish(c, right);
  }
  if (!std::strcmp(c, "shared_small")) {
    int *out;
    cudaMallocManaged(&out, 64 * sizeof(int));
    shared_small<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    bool right = true;
    for (int t = 0; t < 64; ++t) {
      int o = (t + 1) % 64;
      right = right && out[t] == (o % 3 == 0 ? -(o * 7 + 1) : o * 7);
    }
    return finish(c, right);
  }
  if (!std::strcmp(c, "word_then_bytes")) {
    int *out;
    cudaMallocManaged(&out, 16 * sizeof(int));
    word_then_bytes<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    bool right = true;
    for (int t = 0; t < 16; ++t) right = right && out[t] == 0x01010101 * (t + 1);
    return finish(c, right);
  }
  char *bytes, *out;
  cudaMallocManaged(&bytes, 64);
  cudaMallocManaged(&out, 64);
  std::memset(bytes, 0, 64);
  if (!std::strcmp(c, "byte_race_global")) {
    byte_race_global<<<1, 64>>>(bytes, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "byte_race_shared")) {
    byte_race_shared<<<1, 64>>>(out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "byte_race_split")) {
    byte_race_split<<<1, 64>>>(bytes, out);
    return finish(c, true);
  }
  if (!std::strcmp(c, "byte_race_in_word")) {
    int *w;
    cudaMallocManaged(&w, sizeof(int));
    byte_race_in_word<<<1, 64>>>(w, out);
    return finish(c, true);
  }
  std::printf("unknown case '%s'\n", c);
  return 2;
}
