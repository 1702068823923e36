/* Not simulated: see README.md in this folder. */
#error "cusim: <nvblas.h> is not simulated (cuBLAS)"
