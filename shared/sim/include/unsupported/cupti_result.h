/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_result.h> is not simulated (CUPTI)"
