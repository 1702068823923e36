/* Not simulated: see README.md in this folder. */
#error "cusim: <nccl_device.h> is not simulated (NCCL)"
