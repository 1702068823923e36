/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn_ops.h> is not simulated (cuDNN)"
