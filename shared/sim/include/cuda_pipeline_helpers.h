/* <cuda_pipeline_helpers.h> for CPU simulator builds: see cuda_pipeline_primitives.h. */
#ifndef CUSIM_CUDA_PIPELINE_HELPERS_H
#define CUSIM_CUDA_PIPELINE_HELPERS_H
#pragma GCC system_header
#include "cuda_pipeline_primitives.h"
#endif
