/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_callbacks.h> is not simulated (CUPTI)"
