/* Not simulated: see README.md in this folder. */
#error "cusim: <nvvm.h> is not simulated (NVVM)"
