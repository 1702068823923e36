/* Not simulated: see README.md in this folder. */
#error "cusim: <nvJitLink.h> is not simulated (nvJitLink)"
