/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaProfilerTypedefs.h> is not simulated (driver API)"
