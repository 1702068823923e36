/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaVDPAUTypedefs.h> is not simulated (graphics interop)"
