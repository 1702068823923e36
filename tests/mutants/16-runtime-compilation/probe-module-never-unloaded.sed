# Task 2 first loads the image into a module of its own to see that it loads, then loads it again
# for the caller, and never unloads the first: every load leaks a module.
# expect: task 2: a module made on line [0-9]+ is never unloaded
s|  CUresult result = cuModuleLoadData(module, image);|  CUmodule probe;\n  CUresult result = cuModuleLoadData(\&probe, image);\n  if (result != CUDA_SUCCESS) return result;\n  result = cuModuleLoadData(module, image);|
