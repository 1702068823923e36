# Returning as soon as the compile fails, before reading the log: the learner never sees which
# line is wrong.
# expect: task 1: a failed compile must return NVRTC's log
s|^  nvrtcResult compiled = nvrtcCompileProgram(program, count, options);|&\n  if (compiled != NVRTC_SUCCESS) {\n    nvrtcDestroyProgram(\&program);\n    return compiled;\n  }|
