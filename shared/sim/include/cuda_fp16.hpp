/* cuda_fp16.hpp: everything is in the simulator's cuda_fp16.h. */
#include "cuda_fp16.h"
