/* Not simulated: see README.md in this folder. */
#error "cusim: <mma.h> is not simulated (WMMA)"
