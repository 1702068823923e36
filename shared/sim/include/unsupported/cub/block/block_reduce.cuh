/* Not simulated: see README.md in this folder. */
#error "cusim: <cub/block/block_reduce.cuh> is not simulated (CUB)"
