/* Not simulated: see README.md in this folder. */
#error "cusim: <nvrtc.h> is not simulated (NVRTC)"
