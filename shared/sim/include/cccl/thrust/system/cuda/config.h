/* Refused even with the toolkit's CCCL headers: see README.md at the top of this folder. */
#error                                                                                             \
    "cusim: Thrust's CUDA system (thrust/system/cuda, thrust::cuda::par) is not simulated; thrust::device runs on the simulator"
