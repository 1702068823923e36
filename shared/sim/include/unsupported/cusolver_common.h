/* Not simulated: see README.md in this folder. */
#error "cusim: <cusolver_common.h> is not simulated (cuSOLVER)"
