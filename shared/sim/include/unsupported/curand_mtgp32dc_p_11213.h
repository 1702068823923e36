/* Not simulated: see README.md in this folder. */
#error "cusim: <curand_mtgp32dc_p_11213.h> is not simulated (cuRAND MTGP32)"
