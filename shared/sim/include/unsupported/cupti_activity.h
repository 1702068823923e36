/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_activity.h> is not simulated (CUPTI)"
