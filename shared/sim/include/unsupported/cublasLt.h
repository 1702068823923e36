/* Not simulated: see README.md in this folder. */
#error "cusim: <cublasLt.h> is not simulated (cuBLAS)"
