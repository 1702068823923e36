/* Not simulated: see README.md in this folder. */
#error "cusim: <cublas.h> is not simulated (cuBLAS)"
