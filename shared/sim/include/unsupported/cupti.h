/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti.h> is not simulated (CUPTI)"
