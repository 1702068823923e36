/* sm_20_atomic_functions.h for the CPU simulator. In the toolkit cuda_runtime.h gathers this
   header; here all it declares comes with cuda_runtime.h. */
#ifndef CUSIM_COMPAT_SM_20_ATOMIC_FUNCTIONS_H
#define CUSIM_COMPAT_SM_20_ATOMIC_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
