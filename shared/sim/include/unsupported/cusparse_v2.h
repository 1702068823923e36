/* Not simulated: see README.md in this folder. */
#error "cusim: <cusparse_v2.h> is not simulated (cuSPARSE)"
