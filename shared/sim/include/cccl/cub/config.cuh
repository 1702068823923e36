/* Refused even with the toolkit's CCCL headers: see README.md at the top of this folder. */
#pragma once
#error "cusim: CUB is not simulated (Thrust's algorithms are: thrust::sort, thrust::reduce, ...)"
