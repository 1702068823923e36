/* Not simulated: see README.md in this folder. */
#error "cusim: <cublas_api.h> is not simulated (cuBLAS)"
