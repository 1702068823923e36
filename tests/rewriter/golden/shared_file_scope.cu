// __shared__ at file scope (as NVIDIA's dct8x8 sample declares it): each declarator becomes a
// typedef and an accessor of the current block's copy; every later use of the name calls it.
#define BLOCK 16
struct pair { int a; float b; };
__shared__ float table[64 * 8];
static __shared__ volatile int grid2[4][BLOCK], count, *where[2];
__shared__ __align__(16) struct pair stats;
extern __shared__ float dynamic[];
extern __shared__ float dynamic[];
__device__ float first(int i) { return table[i] + sizeof(table) + *&table[i] + ::count; }
__global__ void one(float *out) {
  __shared__ float local[sizeof(grid2) / sizeof(int)];
  table[threadIdx.x] = stats.b + dynamic[0] + grid2[1][2];
  where[0] = &count;
  __syncthreads();
  out[0] = first(0) + local[0];
}
template <class T> __global__ void two(T *out, pair *host_side) {
  table[threadIdx.x] = (T)host_side->b;
  out[threadIdx.x] = table[BLOCK - 1 - threadIdx.x] + host_side[0].a;
}
void launch(float *out) {
  int count = 2; /* a local variable of the same name hides it in this block */
  count++;
  struct { int table; } s = {count};
  out[s.table] = 0;
  one<<<2, BLOCK, BLOCK * sizeof(float)>>>(out);
}
__device__ int again(void) { return count + table[0]; }
