# rtc_compile compiles without the options it was given: the architecture and every -D are lost,
# so box_fixed (which needs -DRADIUS) never exists. Task 1's fault, not task 4's.
# expect: FAIL: task 1: pass the options given to nvrtcCompileProgram
s|nvrtcCompileProgram(program, count, options)|nvrtcCompileProgram(program, 0, NULL)|
