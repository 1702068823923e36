# Task 4 generates into a scratch buffer of its own, copies it to d_out and never frees it: every
# call leaks count floats of device memory.
# expect: task 4: device memory allocated on line [0-9]+ is never freed
s|^  return curandGenerateNormal(generator, d_out, count, 0.0f, 1.0f);|  float *scratch = NULL;\n  if (cudaMalloc(\&scratch, count * sizeof(float)) != cudaSuccess)\n    return CURAND_STATUS_ALLOCATION_FAILED;\n  curandStatus_t status = curandGenerateNormal(generator, scratch, count, 0.0f, 1.0f);\n  if (status == CURAND_STATUS_SUCCESS)\n    cudaMemcpy(d_out, scratch, count * sizeof(float), cudaMemcpyDeviceToDevice);\n  return status;|
