/* <cuda_pipeline.h> for CPU simulator builds: the primitives of <cuda_pipeline_primitives.h>
   (nvcuda::experimental's pipeline classes are not simulated: the build stops at their names). */
#ifndef CUSIM_CUDA_PIPELINE_H
#define CUSIM_CUDA_PIPELINE_H
#pragma GCC system_header
#define _CUDA_PIPELINE_H_
#include "cuda_pipeline_primitives.h"
#endif
