/* nvToolsExt.h (NVTX 2 path) for the CPU simulator: see nvtx3/nvToolsExt.h. */
#include "nvtx3/nvToolsExt.h"
