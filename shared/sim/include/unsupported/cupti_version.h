/* Not simulated: see README.md in this folder. */
#error "cusim: <cupti_version.h> is not simulated (CUPTI)"
