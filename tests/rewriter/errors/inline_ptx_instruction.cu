// Inline PTX outside the subset the simulator runs stops the build with one line naming the
// statement; only the first is said (the later refusal on line 4 is not repeated).
// expect-error: 3:3: inline PTX 'cvt.rn.f32.s32': the simulator does not run this PTX instruction (its subset: docs/other-programs.md)
# 1 "inline_ptx_instruction.cu"
__global__ void k(float *out, int i, const float *p) {
  float f;
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(i));
  asm("ld.global.f32 %0, [%1];" : "=f"(f) : "l"(p));
  out[0] = f;
}
