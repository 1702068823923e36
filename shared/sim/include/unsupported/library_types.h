/* Not simulated: see README.md in this folder. */
#error "cusim: <library_types.h> is not simulated (library types)"
