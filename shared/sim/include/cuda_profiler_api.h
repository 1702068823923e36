/* cuda_profiler_api.h for the CPU simulator. In the toolkit cuda_runtime.h gathers this header;
   here all it declares comes with cuda_runtime.h. */
#ifndef CUSIM_COMPAT_CUDA_PROFILER_API_H
#define CUSIM_COMPAT_CUDA_PROFILER_API_H
#include "cuda_runtime.h"
#endif
