// A special register outside the subset (a performance counter) stops the build with one line.
// expect-error: 3:3: inline PTX reads the special register '%pm0', which the simulator does not know
# 1 "inline_ptx_register.cu"
__global__ void k(unsigned *out) {
  unsigned x;
  asm volatile("mov.u32 %0, %%pm0;" : "=r"(x));
  out[0] = x;
}
