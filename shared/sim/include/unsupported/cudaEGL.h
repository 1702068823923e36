/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaEGL.h> is not simulated (graphics interop)"
