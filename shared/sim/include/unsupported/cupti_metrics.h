/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_metrics.h> is not simulated (CUPTI)"
