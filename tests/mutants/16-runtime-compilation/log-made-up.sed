# A log made up for the shipped string: on a failed compile the answer writes "broken.cu(3)" in
# place of NVRTC's log. It passes every shipped size; a run with a seed of its own puts blank lines
# before the error (wb_hash64 of the seed), and the made-up log names the wrong line.
# passes: shipped
# args: --n 1000 --seed 4242
# expect: FAIL: task 1: a failed compile must return NVRTC's log
s|  if (result == NVRTC_SUCCESS) result = nvrtcGetProgramLog(program, \*log);|&\
  if (compiled != NVRTC_SUCCESS \&\& *log != NULL) snprintf(*log, log_size, "broken.cu(3): error");|
