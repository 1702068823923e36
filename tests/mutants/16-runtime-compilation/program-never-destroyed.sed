# Task 1 keeps the log and the PTX but never destroys the NVRTC program: every compile leaks it
# (with its copy of the source, the log and the image).
# expect: task 1: an NVRTC program made on line [0-9]+ is never destroyed
s|  nvrtcDestroyProgram(&program);|  /* the program is no longer needed */|
