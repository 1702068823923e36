/* Not simulated: see README.md in this folder. */
#error "cusim: <cub/device/device_reduce.cuh> is not simulated (CUB)"
