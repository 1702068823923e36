/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaVDPAU.h> is not simulated (graphics interop)"
