// expect: __global__ function 'sum2' must have a void return type
template <typename T> __global__ T sum2(T a, T b) { // error-here
  return a + b;
}

template __global__ float sum2<float>(float, float);
