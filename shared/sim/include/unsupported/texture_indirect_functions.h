/* Not simulated: see README.md in this folder. */
#error "cusim: <texture_indirect_functions.h> is not simulated (texture functions)"
