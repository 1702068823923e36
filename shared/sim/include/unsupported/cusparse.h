/* Not simulated: see README.md in this folder. */
#error "cusim: <cusparse.h> is not simulated (cuSPARSE)"
