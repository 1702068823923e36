/* Not simulated: see README.md in this folder. */
#error "cusim: <cuda_gl_interop.h> is not simulated (graphics interop)"
