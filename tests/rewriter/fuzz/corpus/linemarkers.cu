// Preprocessed input: errors are reported at the file and line the linemarkers name, and
// declarations in system headers (flag 3) are not the user's.
// (declarations are checked in a first pass, calls in a second)
// expect-error: 50:12: __global__ function 'value' must have a void return type (nvcc rejects this too)
// expect-error: 41:12: host code calls the __device__ function 'square'; only device code can call it (nvcc rejects this too)
// expect-error: 45:3: device code calls the host function 'reference'; a kernel can call only __device__ functions (nvcc rejects this too)
# 1 "linemarkers.cu"
# 1 "<built-in>"
# 1 "/usr/include/system.h" 1 3
__device__ float system_device_only(float x);
float system_helper(float x);
# 30 "linemarkers.cu" 2
__device__ float square(float x) { return x * x; }
void reference(float *out) { out[0] = system_device_only(1.0f); }
float host_helper(float x) { return system_helper(x); }





# 40 "linemarkers.cu"
void host(float *out) {
  out[0] = square(2.0f) +
           host_helper(1.0f);
}
__global__ void kernel(float *out) {
  reference(out);
  out[1] = system_helper(1.0f);
}


__global__ float value() { return 1.0f; }
