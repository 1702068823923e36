/* cublas_api.h for the CPU simulator: the same declarations as cublas_v2.h. */
#include "cublas_v2.h"
