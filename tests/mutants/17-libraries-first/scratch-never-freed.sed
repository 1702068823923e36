# Task 4 generates into a scratch buffer of its own, copies it to d_out on the stream and never
# frees it: every call leaks count floats of device memory.
# expect: task 4: device memory allocated on line [0-9]+ is never freed
s|^    status = curandGenerateNormal(generator, d_out, count, 0.0f, 1.0f);|  {\n    float *scratch = NULL;\n    status = cudaMalloc(\&scratch, count * sizeof(float)) == cudaSuccess\n                 ? curandGenerateNormal(generator, scratch, count, 0.0f, 1.0f)\n                 : CURAND_STATUS_ALLOCATION_FAILED;\n    if (status == CURAND_STATUS_SUCCESS)\n      cudaMemcpyAsync(d_out, scratch, count * sizeof(float), cudaMemcpyDeviceToDevice, stream);\n  }|
