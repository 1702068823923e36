/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn_adv.h> is not simulated (cuDNN)"
