// Included into nn.cu by the build line (-include nn_config.h), as some Makefiles configure a
// program: the sizes live here, not in the source.
#define REC_COUNT 40000
#define NEAREST 8
#define THREADS_PER_BLOCK 128
#define TARGET_LAT 30.0f
#define TARGET_LNG 90.0f
