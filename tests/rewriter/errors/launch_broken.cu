__global__ void k(int x) {}
void host() {
  k<<<1, 1>>>;
  get(k)<<<1, 1>>>(0);
  k<<<1, 1;
  k<<<1,
#ifdef BIG
      1024
#else
      32
#endif
      >>>(0);
  k<<<1, 1>>>(0); // fine
}
// expect-error: 3:14: expected '(' and the kernel's arguments after '>>>'
// expect-error: 4:9: expected a kernel name before '<<<'
// expect-error: 5:4: '<<<' without a matching '>>>'
// expect-error: 7:1: a preprocessor directive inside a kernel launch configuration is not supported by the simulator
