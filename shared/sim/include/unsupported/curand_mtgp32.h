/* Not simulated: see README.md in this folder. */
#error "cusim: <curand_mtgp32.h> is not simulated (cuRAND MTGP32)"
