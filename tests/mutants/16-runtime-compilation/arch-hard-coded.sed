# rtc_compile forces the architecture of the learner's own newer GPU, compute_120, after the
# options given (the last one wins, with NVRTC's warning). NVRTC compiles it, but PTX whose
# .target is newer than the device does not load on an H100 (sm_90): CUDA_ERROR_INVALID_PTX, on
# a GPU and on the simulator. The driver loads the image itself to blame task 1, not task 2.
# expect: FAIL: task 1: the PTX is for a newer GPU than this one
s|^  nvrtcResult compiled = nvrtcCompileProgram(program, count, options);|  const char *with_arch[16];\n  for (int i = 0; i < count \&\& i < 15; ++i) with_arch[i] = options[i];\n  with_arch[count] = "--gpu-architecture=compute_120";\n  nvrtcResult compiled = nvrtcCompileProgram(program, count + 1, with_arch);|
