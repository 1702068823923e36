/* Not simulated: see README.md in this folder. */
#error "cusim: <curand_mtgp32_kernel.h> is not simulated (cuRAND MTGP32)"
