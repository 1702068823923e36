/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_pipeline.h> is not simulated (async copies)"
