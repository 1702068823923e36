// A block whose statements leave the subset (a float comparison: NaN's rules are not run) stops
// the build with one line, whatever the statements before it.
// expect-error: 3:3: inline PTX 'setp.lt.f32': the simulator does not run this PTX instruction (its subset: docs/other-programs.md)
# 1 "inline_ptx_predicate.cu"
__global__ void k(unsigned *out, float a) {
  unsigned x = 0;
  asm("{\n\t.reg .pred p;\n\tsetp.lt.f32 p, %1, 0f00000000;\n\t@p mov.u32 %0, 1;\n\t}"
      : "+r"(x)
      : "f"(a));
  out[0] = x;
}
