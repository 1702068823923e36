/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_events.h> is not simulated (CUPTI)"
