/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaGL.h> is not simulated (graphics interop)"
