/* Not simulated: see README.md in this folder. */
#error "cusim: <cub/device/device_scan.cuh> is not simulated (CUB)"
