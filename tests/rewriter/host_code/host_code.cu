// Host-only functions the rewriter leaves uninstrumented in a checked build (host_code.c): each
// marked_* must get __attribute__((no_sanitize("thread"))), each kept_* must not.
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

typedef struct {
  float x, y;
} point;
struct cell {
  int count;
};

__global__ void kept_kernel(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 2.0f * p[i];
}
__device__ float kept_device(float x) { return x * x; }
__host__ __device__ float kept_host_device(float x) { return x + 1.0f; }
constexpr int kept_constexpr(int x) { return x * 2; }
template <class T> T kept_template(T x) { return x; }
struct kept_holder {
  int kept_member(int x) { return x + 1; }
};
static inline float marked_helper(float a, float b) { return a > b ? a : b; }

void marked_reference(const float *a, float *b, int n) {
  for (int i = 0; i < n; ++i) b[i] = 2.0f * a[i] + sqrtf(fabsf(a[i]));
}
static double marked_sum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i <= n - 1; i++) s += a[i];
  return s;
}
float marked_points(const point *p, struct cell *c, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += p[i].x * p[i].y + (float)c[i].count;
  return s;
}
double marked_caller(const double *a, int n) {
  assert(n > 0);
  return marked_sum(a, n) / n;
}
int marked_file(const char *name) {
  FILE *f = fopen(name, "r");
  if (f == NULL) return -1;
  fclose(f);
  return 0;
}
float marked_calls_helper(const float *a, int n) {
  float m = a[0];
  for (int i = 1; i < n; ++i) m = marked_helper(m, a[i]);
  return m;
}
int kept_calls_header_inline(const int *a, int n) {
  int m = a[0];
  for (int i = 1; i < n; ++i) m = min(m, a[i]);
  return m;
}
size_t kept_vector(const std::vector<float> &v) { return v.size(); }
float kept_member_call(std::vector<float> v) {
  float s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i];
  return s;
}
float kept_vector_type(const float *a) {
  float3 v = make_float3(a[0], a[1], a[2]);
  return v.x + v.y + v.z;
}
int kept_lambda(int x) {
  auto twice = [](int y) { return 2 * y; };
  return twice(x);
}
int kept_unknown_type(const float *a) {
  dim3 grid(4);
  return (int)(a[0] + grid.x);
}
int kept_calls_device_side(int x) { return kept_constexpr(x); }
extern "C" int kept_extern_c(int x) { return x + 1; }
[[nodiscard]] int kept_cxx_attribute(int x) { return x - 1; }
extern "C" {
int marked_in_extern_block(int x) { return 2 * x; }
}
int main(void) {
  float *d = NULL;
  cudaMalloc(&d, 64 * sizeof(float));
  kept_kernel<<<1, 64>>>(d, 64);
  cudaDeviceSynchronize();
  cudaFree(d);
  double a[4] = {1, 2, 3, 4};
  printf("%g\n", marked_caller(a, 4));
  return 0;
}
