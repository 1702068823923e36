# rtc_compile adds an architecture of its own that does not exist: NVRTC 13 rejects
# --gpu-architecture=compute_999 (NVRTC_ERROR_INVALID_OPTION, "invalid value for
# --gpu-architecture (-arch)"), as the simulator's NVRTC does.
# expect: FAIL: task 1: NVRTC rejected an option
s|^  nvrtcResult compiled = nvrtcCompileProgram(program, count, options);|  const char *with_arch[16] = {"--gpu-architecture=compute_999"};\n  for (int i = 0; i < count \&\& i < 15; ++i) with_arch[i + 1] = options[i];\n  nvrtcResult compiled = nvrtcCompileProgram(program, count + 1, with_arch);|
