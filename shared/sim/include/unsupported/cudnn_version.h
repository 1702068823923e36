/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn_version.h> is not simulated (cuDNN)"
