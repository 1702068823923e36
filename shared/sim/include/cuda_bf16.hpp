/* cuda_bf16.hpp: everything is in the simulator's cuda_bf16.h. */
#include "cuda_bf16.h"
