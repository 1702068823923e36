/* Not simulated: see README.md in this folder. */
#error "cusim: <cudnn_graph.h> is not simulated (cuDNN)"
