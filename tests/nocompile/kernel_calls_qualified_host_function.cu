// expect: device code calls the host function 'scale'
namespace util {
int scale(int x) {
  return 3 * x;
}
} // namespace util
namespace u = util;

__global__ void kernel(int *out) {
  out[0] = u::scale(out[0]); // error-here
}
