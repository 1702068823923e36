/* Not simulated: see README.md in this folder. */
#error "cusim: <cusolverDn.h> is not simulated (cuSOLVER)"
