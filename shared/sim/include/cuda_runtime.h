/* cuda_runtime.h for the CPU simulator. From C: the runtime API. From C++: also the built-in
   variables, device functions and the launch machinery (cusim_device.h), and the math functions
   and intrinsics (cusim_math.h). */
#ifndef CUSIM_CUDA_RUNTIME_H
#define CUSIM_CUDA_RUNTIME_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define __CUDA_RUNTIME_H__
#pragma GCC system_header

#include "cuda_runtime_api.h"

#ifdef __cplusplus
#include "cusim_device.h"
#include "cusim_launch_kernel.h"
#include "cusim_math.h"
#endif

#endif
