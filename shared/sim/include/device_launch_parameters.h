/* device_launch_parameters.h for the CPU simulator: the built-in variables (threadIdx, ...) are
   names of device code, which cusim-rewrite resolves (cusim_device.h); this header exists so
   that including it works. */
#ifndef CUSIM_DEVICE_LAUNCH_PARAMETERS_H
#define CUSIM_DEVICE_LAUNCH_PARAMETERS_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define __DEVICE_LAUNCH_PARAMETERS_H__
#pragma GCC system_header
#include "cuda_runtime.h"
#endif
