/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_egl_interop.h> is not simulated (graphics interop)"
