/* Not simulated: see README.md in this folder. */
#error "cusim: <cufftw.h> is not simulated (cuFFT)"
