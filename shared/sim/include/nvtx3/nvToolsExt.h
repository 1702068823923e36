/* nvtx3/nvToolsExt.h for the CPU simulator: NVTX ranges and marks name regions of a program for
   Nsight Systems' timeline. There is no timeline here, so they do nothing (as they cost almost
   nothing on a GPU when no tool listens), and programs that use them build unchanged. */
#ifndef CUSIM_NVTOOLSEXT_H
#define CUSIM_NVTOOLSEXT_H
#define NVTOOLSEXT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;
typedef struct nvtxEventAttributes_v2 {
  uint16_t version, size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType, reserved0;
  union {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  union {
    const char *ascii;
    const wchar_t *unicode;
    nvtxStringHandle_t registered;
  } message;
} nvtxEventAttributes_t;

#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)sizeof(nvtxEventAttributes_t))
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_TYPE_ASCII 1

static inline void nvtxMarkA(const char *message) {
  (void)message;
}
static inline void nvtxMarkEx(const nvtxEventAttributes_t *attributes) {
  (void)attributes;
}
static inline nvtxRangeId_t nvtxRangeStartA(const char *message) {
  (void)message;
  return 0;
}
static inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *attributes) {
  (void)attributes;
  return 0;
}
static inline void nvtxRangeEnd(nvtxRangeId_t id) {
  (void)id;
}
static inline int nvtxRangePushA(const char *message) {
  (void)message;
  return 0;
}
static inline int nvtxRangePushEx(const nvtxEventAttributes_t *attributes) {
  (void)attributes;
  return 0;
}
static inline int nvtxRangePop(void) {
  return 0;
}
static inline void nvtxNameOsThreadA(uint32_t thread, const char *name) {
  (void)thread, (void)name;
}

#ifdef __cplusplus
}
#endif

#endif
