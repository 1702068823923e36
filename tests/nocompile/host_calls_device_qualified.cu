// expect: host code calls the __device__ function 'cube'
namespace math {
__device__ float cube(float x) {
  return x * x * x;
}
} // namespace math

float cube_on_host(float x) {
  return math::cube(x); // error-here
}
