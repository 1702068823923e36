/* Not simulated: see README.md in this folder. */
#error "cusim: <cusolverRf.h> is not simulated (cuSOLVER)"
