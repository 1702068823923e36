// Callees with template arguments, scopes and nested templates.
namespace ns {
template <typename T, int N> __global__ void scale(T *x) {}
}
template <typename T> struct Box {};
template <typename T> __global__ void fill(T *x) {}

void host(float *x, Box<Box<int>> *boxes) {
  ns::scale<float, 4><<<1, 32>>>(x);
  ::ns::scale<float, (4 > 2 ? 8 : 2)><<<1, 32>>>(x);
  fill<Box<Box<int>>><<<1, 1>>>(boxes);
  fill<Box<Box<int> > ><<<1, 1>>>(boxes);
  fill<Box<Box<Box<int>>>><<<1, 1>>>(0);
  ns::template scale<double, 1><<<1, 1>>>(0);
  fill<<<static_cast<int>(sizeof(float)), std::max<int>(1, 2)>>>(x);
  fill<float><<<dim3(1, 2, 3), dim3(4, 5)>>>(x);
  auto shift = x[0] >> 2;
  bool less = x[0] < x[1], more = x[1] > x[0];
  int shifted = 1 << 3, z = 8 >> 1;
  std::cout << "a" << 1 << std::endl;
}
