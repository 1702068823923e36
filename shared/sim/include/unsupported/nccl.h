/* Not simulated: see README.md in this folder. */
#error "cusim: <nccl.h> is not simulated (NCCL)"
