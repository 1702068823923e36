/* Not simulated: see README.md in this folder. */
#error "cusim: <cublasXt.h> is not simulated (cuBLAS)"
