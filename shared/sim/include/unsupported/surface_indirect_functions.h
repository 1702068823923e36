/* Not simulated: see README.md in this folder. */
#error "cusim: <surface_indirect_functions.h> is not simulated (texture functions)"
