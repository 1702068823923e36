/* Not simulated: see README.md in this folder. */
#error "cusim: <cusolverMg.h> is not simulated (cuSOLVER)"
