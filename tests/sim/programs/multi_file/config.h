/* Included into every source with -include (nvcc's --pre-include), as Makefiles do. */
#define MULTI_FILE_N 1000
