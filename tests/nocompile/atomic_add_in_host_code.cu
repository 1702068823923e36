// expect: host code calls the __device__ function 'atomicAdd'
// Atomics are device functions: the host adds up its own results with a plain +=, or copies the
// device's total back.
void count_on_host(int *count, const int *flags, int n) {
  for (int i = 0; i < n; i++)
    if (flags[i]) atomicAdd(count, 1); // error-here
}
