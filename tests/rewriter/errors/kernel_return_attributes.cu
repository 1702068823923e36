// A kernel's return type is still checked across attribute groups whose arguments hold '<',
// '>', '?' and ':' (the groups are skipped, never what follows them).
__launch_bounds__(256, 4 < 8 ? 2 : 1) __global__ int before_global(int *x) { return x[0]; }
template <int N> __global__ float __launch_bounds__(N > 512 ? 512 : N) after(int *x) { return 0; }
[[nodiscard("a < b ? c : d")]] __global__ int bracketed(int *x) { return x[0]; }
// expect-error: 3:50: __global__ function 'before_global' must have a void return type (nvcc rejects this too)
// expect-error: 4:29: __global__ function 'after' must have a void return type (nvcc rejects this too)
// expect-error: 5:43: __global__ function 'bracketed' must have a void return type (nvcc rejects this too)
