/* Not simulated: see README.md in this folder. */
#error "cusim: <cub/cub.cuh> is not simulated (CUB)"
