/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn.h> is not simulated (cuDNN)"
