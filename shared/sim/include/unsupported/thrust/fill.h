/* Not simulated: see README.md in this folder. */
#error                                                                                             \
    "cusim: <thrust/fill.h>: Thrust needs the CUDA toolkit's CCCL headers, not found (nvcc on PATH, CUDA_HOME or CUSIM_CCCL_DIR)"
