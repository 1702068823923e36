/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_target.h> is not simulated (CUPTI)"
