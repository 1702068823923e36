// A matching constraint ("0"), which nvcc does not take either, stops the build with one line.
// expect-error: 3:3: inline PTX: the simulator does not take the constraint "0"
# 1 "inline_ptx_constraint.cu"
__global__ void k(unsigned *out, unsigned a) {
  unsigned x;
  asm("add.u32 %0, %1, 1;" : "=r"(x) : "0"(a));
  out[0] = x;
}
