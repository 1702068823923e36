/* Texture objects for the CPU simulator (issue 18): CUDA arrays (cudaMallocArray and its
   copies), texture objects over an array, linear or pitched 2D memory, and the fetch functions
   tex1Dfetch, tex1D and tex2D with point and linear filtering, normalized coordinates, and the
   wrap, clamp, mirror and border address modes, by the Programming Guide's formulas (runtime:
   texture.cpp). The types and C functions are CUDA 13's; included by cuda_runtime_api.h. */
#ifndef CUSIM_TEXTURE_H
#define CUSIM_TEXTURE_H
/* The toolkit's own guard names of the headers that declare these. */
#define __TEXTURE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#pragma GCC system_header

#include "driver_types.h"

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;

enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};
enum cudaResourceViewFormat { cudaResViewFormatNone = 0x00 };
struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  unsigned int reserved[16];
};

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
typedef unsigned long long cudaTextureObject_t;

#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04

/* Surfaces: read and written by byte offset (x), over a CUDA array made with
   cudaArraySurfaceLoadStore. */
typedef unsigned long long cudaSurfaceObject_t;
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

#ifdef __cplusplus
extern "C" {
#define CUSIM_TEX_DEFAULT(v) = v
#else
#define CUSIM_TEX_DEFAULT(v)
#endif
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height CUSIM_TEX_DEFAULT(0),
                            unsigned int flags CUSIM_TEX_DEFAULT(0));
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject);
#undef CUSIM_TEX_DEFAULT
#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
#include <cstring>
#include <type_traits>

/* cudaCreateChannelDesc<T>(): the channels of a texel type, as channel_descriptor.h has them. */
namespace cusim {
namespace tex {
template <class T> struct channel_of {
  static constexpr int count = 0, bits = 0;
  static constexpr cudaChannelFormatKind kind = cudaChannelFormatKindNone;
};
#define CUSIM_CHANNEL(T, N, B, K)                                                                  \
  template <> struct channel_of<T> {                                                               \
    static constexpr int count = N, bits = B;                                                      \
    static constexpr cudaChannelFormatKind kind = K;                                               \
  };
#define CUSIM_CHANNELS(S, V, B, K)                                                                 \
  CUSIM_CHANNEL(S, 1, B, K)                                                                        \
  CUSIM_CHANNEL(V##1, 1, B, K)                                                                     \
  CUSIM_CHANNEL(V##2, 2, B, K)                                                                     \
  CUSIM_CHANNEL(V##4, 4, B, K)
CUSIM_CHANNELS(signed char, char, 8, cudaChannelFormatKindSigned)
CUSIM_CHANNELS(unsigned char, uchar, 8, cudaChannelFormatKindUnsigned)
CUSIM_CHANNEL(short, 1, 16, cudaChannelFormatKindSigned)
CUSIM_CHANNEL(short2, 2, 16, cudaChannelFormatKindSigned)
CUSIM_CHANNEL(short4, 4, 16, cudaChannelFormatKindSigned)
CUSIM_CHANNEL(unsigned short, 1, 16, cudaChannelFormatKindUnsigned)
CUSIM_CHANNEL(ushort2, 2, 16, cudaChannelFormatKindUnsigned)
CUSIM_CHANNEL(ushort4, 4, 16, cudaChannelFormatKindUnsigned)
CUSIM_CHANNELS(int, int, 32, cudaChannelFormatKindSigned)
CUSIM_CHANNELS(unsigned int, uint, 32, cudaChannelFormatKindUnsigned)
CUSIM_CHANNELS(float, float, 32, cudaChannelFormatKindFloat)
CUSIM_CHANNEL(char, 1, 8,
              (char)-1 < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
#undef CUSIM_CHANNELS
#undef CUSIM_CHANNEL

/* Runtime (texture.cpp). `dims` coordinates in c; the result as float channels (what a float
   texture or a normalized-float read returns), or the texel's bytes (an integer read). */
void fetch_float(cudaTextureObject_t t, int dims, const float *c, float out[4], int channels,
                 const char *what);
void fetch_texel(cudaTextureObject_t t, int dims, const float *c, void *out, size_t size,
                 bool is_float_type, const char *what);
void fetch_index(cudaTextureObject_t t, int x, void *out, size_t size, bool is_float_type,
                 float out_float[4], int channels);
void fetch_float_layer(cudaTextureObject_t t, int dims, const float *c, int layer, float out[4],
                       int channels, const char *what);
void fetch_texel_layer(cudaTextureObject_t t, int dims, const float *c, int layer, void *out,
                       size_t size, const char *what);
void cubemap_face(float x, float y, float z, float c[2], int *face);
void surface_access(cudaSurfaceObject_t s, int dims, int x, int y, void *data, size_t size,
                    int mode, bool write, const char *what);

/* The types a surface reads and writes, as CUDA's surface_indirect_functions.h lists them. */
template <class T> struct surface_type : std::false_type {};
#define CUSIM_SURFACE_TYPE(T)                                                                      \
  template <> struct surface_type<T> : std::true_type {};
CUSIM_SURFACE_TYPE(char)
CUSIM_SURFACE_TYPE(signed char)
CUSIM_SURFACE_TYPE(unsigned char)
CUSIM_SURFACE_TYPE(short)
CUSIM_SURFACE_TYPE(unsigned short)
CUSIM_SURFACE_TYPE(int)
CUSIM_SURFACE_TYPE(unsigned int)
CUSIM_SURFACE_TYPE(long long)
CUSIM_SURFACE_TYPE(unsigned long long)
CUSIM_SURFACE_TYPE(float)
CUSIM_SURFACE_TYPE(char1)
CUSIM_SURFACE_TYPE(uchar1)
CUSIM_SURFACE_TYPE(int1)
CUSIM_SURFACE_TYPE(uint1)
CUSIM_SURFACE_TYPE(float1)
CUSIM_SURFACE_TYPE(char2)
CUSIM_SURFACE_TYPE(uchar2)
CUSIM_SURFACE_TYPE(short2)
CUSIM_SURFACE_TYPE(ushort2)
CUSIM_SURFACE_TYPE(int2)
CUSIM_SURFACE_TYPE(uint2)
CUSIM_SURFACE_TYPE(longlong2)
CUSIM_SURFACE_TYPE(ulonglong2)
CUSIM_SURFACE_TYPE(float2)
CUSIM_SURFACE_TYPE(char4)
CUSIM_SURFACE_TYPE(uchar4)
CUSIM_SURFACE_TYPE(short4)
CUSIM_SURFACE_TYPE(ushort4)
CUSIM_SURFACE_TYPE(int4)
CUSIM_SURFACE_TYPE(uint4)
CUSIM_SURFACE_TYPE(float4)
#undef CUSIM_SURFACE_TYPE
template <class T> using surface_result = std::enable_if_t<surface_type<T>::value>;

template <class T> inline T from_float4(const float f[4]) {
  T v;
  constexpr int n = channel_of<T>::count;
  static_assert(n > 0, "a texture fetch returns a scalar or a vector type of 1, 2 or 4 channels");
  std::memcpy(&v, f, n * sizeof(float));
  return v;
}
template <class T>
inline constexpr bool is_float_v = channel_of<T>::kind == cudaChannelFormatKindFloat;

template <class T> inline T fetch(cudaTextureObject_t t, int dims, const float *c, const char *w) {
  if constexpr (is_float_v<T>) {
    float f[4];
    fetch_float(t, dims, c, f, channel_of<T>::count, w);
    return from_float4<T>(f);
  } else {
    T v;
    fetch_texel(t, dims, c, &v, sizeof(T), false, w);
    return v;
  }
}
} // namespace tex
} // namespace cusim

template <class T> inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  using C = ::cusim::tex::channel_of<T>;
  const int b = C::bits;
  return cudaCreateChannelDesc(b, C::count > 1 ? b : 0, C::count > 2 ? b : 0, C::count > 3 ? b : 0,
                               C::kind);
}

template <class T> inline T tex1Dfetch(cudaTextureObject_t t, int x) {
  T v;
  float f[4];
  ::cusim::tex::fetch_index(t, x, &v, sizeof(T), ::cusim::tex::is_float_v<T>, f,
                            ::cusim::tex::channel_of<T>::count);
  if constexpr (::cusim::tex::is_float_v<T>) v = ::cusim::tex::from_float4<T>(f);
  return v;
}
template <class T> inline T tex1D(cudaTextureObject_t t, float x) {
  const float c[1] = {x};
  return ::cusim::tex::fetch<T>(t, 1, c, "tex1D");
}
template <class T> inline T tex2D(cudaTextureObject_t t, float x, float y) {
  const float c[2] = {x, y};
  return ::cusim::tex::fetch<T>(t, 2, c, "tex2D");
}
template <class T>
inline ::cusim::tex::surface_result<T>
surf1Dread(T *ret, cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cusim::tex::surface_access(s, 1, x, 0, ret, sizeof(T), m, false, "surf1Dread");
}
template <class T>
inline T surf1Dread(cudaSurfaceObject_t s, int x,
                    cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  T v;
  surf1Dread(&v, s, x, m);
  return v;
}
template <class T>
inline ::cusim::tex::surface_result<T>
surf2Dread(T *ret, cudaSurfaceObject_t s, int x, int y,
           cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cusim::tex::surface_access(s, 2, x, y, ret, sizeof(T), m, false, "surf2Dread");
}
template <class T>
inline T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                    cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  T v;
  surf2Dread(&v, s, x, y, m);
  return v;
}
template <class T>
inline ::cusim::tex::surface_result<T>
surf1Dwrite(T v, cudaSurfaceObject_t s, int x, cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cusim::tex::surface_access(s, 1, x, 0, &v, sizeof(T), m, true, "surf1Dwrite");
}
template <class T>
inline ::cusim::tex::surface_result<T>
surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y,
            cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
  ::cusim::tex::surface_access(s, 2, x, y, &v, sizeof(T), m, true, "surf2Dwrite");
}
/* Layered textures: a 1-D or 2-D fetch in one layer of a layered array; cubemaps: the face and
   its coordinates from the direction (x, y, z), as the Programming Guide's cubemap table says. */
namespace cusim {
namespace tex {
template <class T>
inline T fetch_layer(cudaTextureObject_t t, int dims, const float *c, int layer, const char *w) {
  if constexpr (is_float_v<T>) {
    float f[4];
    fetch_float_layer(t, dims, c, layer, f, channel_of<T>::count, w);
    return from_float4<T>(f);
  } else {
    T v;
    fetch_texel_layer(t, dims, c, layer, &v, sizeof(T), w);
    return v;
  }
}
} // namespace tex
} // namespace cusim
template <class T> inline T tex1DLayered(cudaTextureObject_t t, float x, int layer) {
  const float c[1] = {x};
  return ::cusim::tex::fetch_layer<T>(t, 1, c, layer, "tex1DLayered");
}
template <class T> inline T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) {
  const float c[2] = {x, y};
  return ::cusim::tex::fetch_layer<T>(t, 2, c, layer, "tex2DLayered");
}
template <class T> inline T texCubemap(cudaTextureObject_t t, float x, float y, float z) {
  float c[2];
  int face;
  ::cusim::tex::cubemap_face(x, y, z, c, &face);
  return ::cusim::tex::fetch_layer<T>(t, -2, c, face, "texCubemap");
}
template <class T> inline void tex1DLayered(T *ret, cudaTextureObject_t t, float x, int layer) {
  *ret = tex1DLayered<T>(t, x, layer);
}
template <class T>
inline void tex2DLayered(T *ret, cudaTextureObject_t t, float x, float y, int layer) {
  *ret = tex2DLayered<T>(t, x, y, layer);
}
template <class T>
inline void texCubemap(T *ret, cudaTextureObject_t t, float x, float y, float z) {
  *ret = texCubemap<T>(t, x, y, z);
}
template <class T> inline void tex1Dfetch(T *ret, cudaTextureObject_t t, int x) {
  *ret = tex1Dfetch<T>(t, x);
}
template <class T> inline void tex1D(T *ret, cudaTextureObject_t t, float x) {
  *ret = tex1D<T>(t, x);
}
template <class T> inline void tex2D(T *ret, cudaTextureObject_t t, float x, float y) {
  *ret = tex2D<T>(t, x, y);
}
#endif

#endif
