/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaGLTypedefs.h> is not simulated (graphics interop)"
