/* Not simulated: see README.md in this folder. */
#error "cusim: <cublas_v2.h> is not simulated (cuBLAS)"
