// Templates, qualifiers, attributes between, rvalue references, unnamed parameters.
template <typename T>
__global__ void a(const T &&value, int n) {}
extern "C" __global__ void __launch_bounds__(256, 2) b(int n, Box<int &> fine, float &out) {}
__global__ static void c(int, int &);
template <class T> __global__ void d(T *x, const Matrix<T, 2> &m = Matrix<T, 2>()) {}
// expect-error: 3:27: kernel parameter 'value' is a reference; __global__ functions take their parameters by value (nvcc accepts this, but the kernel would read host memory on a GPU)
// expect-error: 4:86: kernel parameter 'out' is a reference; __global__ functions take their parameters by value (nvcc accepts this, but the kernel would read host memory on a GPU)
// expect-error: 5:35: kernel parameter 2 is a reference; __global__ functions take their parameters by value (nvcc accepts this, but the kernel would read host memory on a GPU)
// expect-error: 6:63: kernel parameter 'm' is a reference; __global__ functions take their parameters by value (nvcc accepts this, but the kernel would read host memory on a GPU)
