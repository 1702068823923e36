# 1 "inline_ptx.cu"
// Preprocessed input (the linemarker above): inline PTX in device code becomes a call of
// ::cusim::ptx::run() whose lambda does what the statements do; the C operands stay in place, so
// a shift inside one is still hooked. Host code's asm is the host's and is left alone.
__global__ void k(unsigned *out, unsigned a, int s) {
  unsigned lane, x;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("{\n\t.reg .u32 t<2>;\n\t"
               "add.u32 t0, %1, %2;\n\tshl.b32 %0, t0, 1;\n\t}"
               : "=r"(x)
               : "r"(a << s), "n"(3));
  asm("{ .reg .pred p; setp.lt.s32 p, %1, 0; @!p add.u32 %0, %0, 1; }" : "+r"(x) : "r"(s));
  asm volatile("membar.gl;" ::: "memory");
  __asm__ __volatile__("add.u32 %0, %0, %1;" : "+r"(x) : "r"(threadIdx.x));
  out[lane] = x;
}
void host_side(void) { asm volatile("nop"); }
