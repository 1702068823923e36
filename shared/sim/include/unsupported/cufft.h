/* Not simulated: see README.md in this folder. */
#error "cusim: <cufft.h> is not simulated (cuFFT)"
