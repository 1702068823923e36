/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaEGLTypedefs.h> is not simulated (graphics interop)"
