// leak_cases.cu's "driver": code outside the learner's file (no task regions here), as a lesson's
// main.c is. What it makes is never reported as the learner's, only at exit.
#pragma once
#include <cuda_runtime.h>

static cudaStream_t driver_stream(void) {
  cudaStream_t stream = NULL;
  if (cudaStreamCreate(&stream) != cudaSuccess) return NULL;
  return stream;
}
