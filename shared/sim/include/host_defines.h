/* host_defines.h for the CPU simulator. In the toolkit cuda_runtime.h gathers this header;
   here all it declares comes with cuda_runtime.h. */
#ifndef CUSIM_COMPAT_HOST_DEFINES_H
#define CUSIM_COMPAT_HOST_DEFINES_H
#include "cuda_runtime.h"
#endif
