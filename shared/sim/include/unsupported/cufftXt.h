/* Not simulated: see README.md in this folder. */
#error "cusim: <cufftXt.h> is not simulated (cuFFT)"
