// A block whose statements leave the subset (a predicate and setp) stops the build with one line,
// whatever the statements before it.
// expect-error: 3:3: inline PTX declares a register of type '.pred', which the simulator does not run
# 1 "inline_ptx_predicate.cu"
__global__ void k(unsigned *out, unsigned a) {
  unsigned x = 0;
  asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p mov.u32 %0, 1;\n\t}"
      : "+r"(x)
      : "r"(a));
  out[0] = x;
}
