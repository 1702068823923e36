/* Not simulated: see README.md in this folder. */
#error "cusim: <curand_poisson.h> is not simulated (cuRAND discrete)"
