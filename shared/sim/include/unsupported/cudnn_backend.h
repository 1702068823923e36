/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn_backend.h> is not simulated (cuDNN)"
