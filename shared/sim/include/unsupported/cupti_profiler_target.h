/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_profiler_target.h> is not simulated (CUPTI)"
