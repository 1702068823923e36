/* Not simulated: see README.md in this folder. */
#error "cusim: <curand_discrete2.h> is not simulated (cuRAND discrete)"
