// An operand whose register does not fit the instruction stops the build with one line (ptxas
// rejects it too): "l" is a 64-bit register, add.u32 takes 32 bits.
// expect-error: 3:3: inline PTX 'add.u32': an operand's register has another type or size (ptxas rejects this too)
# 1 "inline_ptx_operands.cu"
__global__ void k(unsigned *out, unsigned long long w) {
  unsigned x;
  asm("add.u32 %0, %1, %1;" : "=r"(x) : "l"(w));
  out[0] = x;
}
