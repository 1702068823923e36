/* Not simulated: see README.md in this folder. */
#error "cusim: <cudaProfiler.h> is not simulated (driver API)"
