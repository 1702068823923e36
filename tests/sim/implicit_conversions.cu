// Out-of-range float-to-integer conversions that the rewriter does not see (issue 27): implicit
// ones (initialization, assignment, compound assignment, return, argument) need the types, which
// only the compiler knows. C++ leaves them undefined, x86 gives INT_MIN, a GPU's cvt.rzi
// saturates (NaN gives 0). The checked build compiles device code with
// -fsanitize=float-cast-overflow, and the simulator's handler (runtime/float_cast.cpp) stops the
// kernel with one line naming the line, as the memory checker's other errors do: it cannot give
// the GPU's answer there, so it does not give a wrong one silently. In host code nothing is said
// (a real machine gets x86's answer there too), explicit casts get the GPU's answer (gpu_cast),
// and values in range convert as C++ says, with no message.
// Usage: implicit_conversions CASE, CASE one of the names in main(); prints the results, or the
// kernel's error.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ int returns_int(float v) {
  return v;
}
__device__ long long takes_int(int v) {
  return v;
}

// f: {value, NaN, 1e30, -5, 2.5, 300}; which: the form to convert with
__global__ void convert(const float *f, const double *d, int which, long long *out) {
  float v = f[0];
  switch (which) {
  case 0: {
    int a = v; // init
    out[0] = a;
  } break;
  case 1: {
    int b;
    b = v; // assignment
    out[0] = b;
  } break;
  case 2: {
    int c = 0;
    c += v; // compound
    out[0] = c;
  } break;
  case 3:
    out[0] = returns_int(v);
    break;
  case 4:
    out[0] = takes_int(v);
    break;
  case 5: {
    long long l = f[2]; // 1e30 as a long long
    out[0] = l;
  } break;
  case 6: {
    unsigned u = f[3]; // -5 as an unsigned
    out[0] = u;
  } break;
  case 7: {
    int n = f[1]; // NaN
    out[0] = n;
  } break;
  case 8: {
    int e = d[0]; // a double
    out[0] = e;
  } break;
  case 9: { // explicit casts: the GPU's answer, no error
    out[0] = (int)v + (long long)static_cast<int>(f[1]) + int(f[3]) * 0 + (unsigned)f[3];
  } break;
  case 10: { // in range: C++'s conversion, no error
    int a = f[4];
    unsigned u = f[4];
    int c = 1;
    c += f[4];
    out[0] = a + u + c + returns_int(f[4]) + takes_int(-f[4]);
  } break;
  case 12: {
    unsigned char uc = f[3]; // -5: cvt.rzi.u32 gives 0 (x86: -5, then the low 8 bits: 251)
    out[0] = uc;
  } break;
  case 11: {              // out of range, where x86 gives the GPU's answer: a note, no error
    int a = -v;           // -3e10: the lowest int on both
    signed char c = f[5]; // 300: cvt.rzi.s32 then the low 8 bits, as x86's cvttss2si: 44
    out[0] = a + c;
  } break;
  }
}

int main(int argc, char **argv) {
  static const char *const names[] = {"init",    "assign",   "compound", "return", "argument",
                                      "llong",   "unsigned", "nan",      "double", "explicit",
                                      "inrange", "agree",    "uchar",    nullptr};
  int which = -1;
  for (int i = 0; argc > 1 && names[i]; ++i)
    if (std::strcmp(argv[1], names[i]) == 0) which = i;
  bool host = argc > 1 && std::strcmp(argv[1], "host") == 0;
  if (which < 0 && !host) {
    std::printf("usage: implicit_conversions init|assign|compound|return|argument|llong|unsigned|"
                "nan|double|explicit|inrange|agree|uchar|host\n");
    return 2;
  }
  const float fv[] = {3e10f, __builtin_nanf(""), 1e30f, -5.0f, 2.5f, 300.0f};
  float *f;
  double *d;
  long long *out;
  cudaMallocManaged(&f, sizeof fv);
  cudaMallocManaged(&d, sizeof(double));
  cudaMallocManaged(&out, sizeof(long long));
  std::memcpy(f, fv, sizeof fv);
  d[0] = 5e9;
  if (host) { // the same conversion in host code: x86's answer, no message
    volatile float v = f[0];
    int a = v;
    std::printf("host: %d\n", a);
    cudaFree(f);
    cudaFree(d);
    cudaFree(out);
    return 0;
  }
  convert<<<1, 1>>>(f, d, which, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    std::printf("%s: %s\n", names[which], cudaGetErrorName(e));
  else
    std::printf("%s: %lld\n", names[which], out[0]);
  cudaFree(f);
  cudaFree(d);
  cudaFree(out);
  return e != cudaSuccess;
}
