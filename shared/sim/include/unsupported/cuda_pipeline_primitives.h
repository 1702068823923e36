/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_pipeline_primitives.h> is not simulated (async copies)"
