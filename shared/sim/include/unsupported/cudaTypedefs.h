/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaTypedefs.h> is not simulated (driver API)"
