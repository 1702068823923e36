/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn_cnn.h> is not simulated (cuDNN)"
