/* Not simulated: see README.md in this folder. */
#error "cusim: <curand_discrete.h> is not simulated (cuRAND discrete)"
