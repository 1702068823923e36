/* vector_types.h for the CPU simulator: dim3, uint3 and the short vector types with their make_
   functions. Compiles as C11 and as C++17. */
#ifndef CUSIM_VECTOR_TYPES_H
#define CUSIM_VECTOR_TYPES_H
/* The toolkit's own guard name: programs test it (helper_cuda.h does). */
#define __VECTOR_TYPES_H__
#pragma GCC system_header

#if defined(__cplusplus)
#define CUSIM_VT_INLINE static inline
#else
#define CUSIM_VT_INLINE static inline
#endif

typedef struct __attribute__((aligned(1))) char1 {
  signed char x;
} char1;
CUSIM_VT_INLINE char1 make_char1(signed char x) {
  char1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(1))) uchar1 {
  unsigned char x;
} uchar1;
CUSIM_VT_INLINE uchar1 make_uchar1(unsigned char x) {
  uchar1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(2))) char2 {
  signed char x, y;
} char2;
CUSIM_VT_INLINE char2 make_char2(signed char x, signed char y) {
  char2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(2))) uchar2 {
  unsigned char x, y;
} uchar2;
CUSIM_VT_INLINE uchar2 make_uchar2(unsigned char x, unsigned char y) {
  uchar2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(1))) char3 {
  signed char x, y, z;
} char3;
CUSIM_VT_INLINE char3 make_char3(signed char x, signed char y, signed char z) {
  char3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(1))) uchar3 {
  unsigned char x, y, z;
} uchar3;
CUSIM_VT_INLINE uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) {
  uchar3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(4))) char4 {
  signed char x, y, z, w;
} char4;
CUSIM_VT_INLINE char4 make_char4(signed char x, signed char y, signed char z, signed char w) {
  char4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(4))) uchar4 {
  unsigned char x, y, z, w;
} uchar4;
CUSIM_VT_INLINE uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z,
                                   unsigned char w) {
  uchar4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(4))) short2 {
  short x, y;
} short2;
CUSIM_VT_INLINE short2 make_short2(short x, short y) {
  short2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(4))) ushort2 {
  unsigned short x, y;
} ushort2;
CUSIM_VT_INLINE ushort2 make_ushort2(unsigned short x, unsigned short y) {
  ushort2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(8))) short4 {
  short x, y, z, w;
} short4;
CUSIM_VT_INLINE short4 make_short4(short x, short y, short z, short w) {
  short4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(8))) ushort4 {
  unsigned short x, y, z, w;
} ushort4;
CUSIM_VT_INLINE ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z,
                                     unsigned short w) {
  ushort4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(4))) int1 {
  int x;
} int1;
CUSIM_VT_INLINE int1 make_int1(int x) {
  int1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(4))) uint1 {
  unsigned int x;
} uint1;
CUSIM_VT_INLINE uint1 make_uint1(unsigned int x) {
  uint1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(8))) int2 {
  int x, y;
} int2;
CUSIM_VT_INLINE int2 make_int2(int x, int y) {
  int2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(8))) uint2 {
  unsigned int x, y;
} uint2;
CUSIM_VT_INLINE uint2 make_uint2(unsigned int x, unsigned int y) {
  uint2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(4))) int3 {
  int x, y, z;
} int3;
CUSIM_VT_INLINE int3 make_int3(int x, int y, int z) {
  int3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(4))) uint3 {
  unsigned int x, y, z;
} uint3;
CUSIM_VT_INLINE uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  uint3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(16))) int4 {
  int x, y, z, w;
} int4;
CUSIM_VT_INLINE int4 make_int4(int x, int y, int z, int w) {
  int4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) uint4 {
  unsigned int x, y, z, w;
} uint4;
CUSIM_VT_INLINE uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) {
  uint4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) long2 {
  long x, y;
} long2;
CUSIM_VT_INLINE long2 make_long2(long x, long y) {
  long2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(16))) ulong2 {
  unsigned long x, y;
} ulong2;
CUSIM_VT_INLINE ulong2 make_ulong2(unsigned long x, unsigned long y) {
  ulong2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(16))) longlong2 {
  long long x, y;
} longlong2;
CUSIM_VT_INLINE longlong2 make_longlong2(long long x, long long y) {
  longlong2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(16))) ulonglong2 {
  unsigned long long x, y;
} ulonglong2;
CUSIM_VT_INLINE ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) {
  ulonglong2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(4))) float1 {
  float x;
} float1;
CUSIM_VT_INLINE float1 make_float1(float x) {
  float1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(8))) float2 {
  float x, y;
} float2;
CUSIM_VT_INLINE float2 make_float2(float x, float y) {
  float2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(4))) float3 {
  float x, y, z;
} float3;
CUSIM_VT_INLINE float3 make_float3(float x, float y, float z) {
  float3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
} float4;
CUSIM_VT_INLINE float4 make_float4(float x, float y, float z, float w) {
  float4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(8))) double1 {
  double x;
} double1;
CUSIM_VT_INLINE double1 make_double1(double x) {
  double1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(16))) double2 {
  double x, y;
} double2;
CUSIM_VT_INLINE double2 make_double2(double x, double y) {
  double2 r;
  r.x = x;
  r.y = y;
  return r;
}
typedef struct __attribute__((aligned(8))) double3 {
  double x, y, z;
} double3;
CUSIM_VT_INLINE double3 make_double3(double x, double y, double z) {
  double3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(16))) double4 {
  double x, y, z, w;
} double4;
CUSIM_VT_INLINE double4 make_double4(double x, double y, double z, double w) {
  double4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

/* The rest of the toolkit's vector types (libcu++, which Thrust includes, gives each a tuple
   interface, so each must exist). The 4-vectors of 8-byte types come in two alignments since
   CUDA 13 (_16a, _32a; the plain name is the 16-byte one). */
typedef struct __attribute__((aligned(2))) short1 {
  short x;
} short1;
CUSIM_VT_INLINE short1 make_short1(short x) {
  short1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(2))) ushort1 {
  unsigned short x;
} ushort1;
CUSIM_VT_INLINE ushort1 make_ushort1(unsigned short x) {
  ushort1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(2))) short3 {
  short x, y, z;
} short3;
CUSIM_VT_INLINE short3 make_short3(short x, short y, short z) {
  short3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(2))) ushort3 {
  unsigned short x, y, z;
} ushort3;
CUSIM_VT_INLINE ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) {
  ushort3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(8))) long1 {
  long x;
} long1;
CUSIM_VT_INLINE long1 make_long1(long x) {
  long1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(8))) ulong1 {
  unsigned long x;
} ulong1;
CUSIM_VT_INLINE ulong1 make_ulong1(unsigned long x) {
  ulong1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(8))) long3 {
  long x, y, z;
} long3;
CUSIM_VT_INLINE long3 make_long3(long x, long y, long z) {
  long3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(8))) ulong3 {
  unsigned long x, y, z;
} ulong3;
CUSIM_VT_INLINE ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) {
  ulong3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(16))) long4 {
  long x, y, z, w;
} long4;
CUSIM_VT_INLINE long4 make_long4(long x, long y, long z, long w) {
  long4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) ulong4 {
  unsigned long x, y, z, w;
} ulong4;
CUSIM_VT_INLINE ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z,
                                   unsigned long w) {
  ulong4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(8))) longlong1 {
  long long x;
} longlong1;
CUSIM_VT_INLINE longlong1 make_longlong1(long long x) {
  longlong1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(8))) ulonglong1 {
  unsigned long long x;
} ulonglong1;
CUSIM_VT_INLINE ulonglong1 make_ulonglong1(unsigned long long x) {
  ulonglong1 r;
  r.x = x;
  return r;
}
typedef struct __attribute__((aligned(8))) longlong3 {
  long long x, y, z;
} longlong3;
CUSIM_VT_INLINE longlong3 make_longlong3(long long x, long long y, long long z) {
  longlong3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(8))) ulonglong3 {
  unsigned long long x, y, z;
} ulonglong3;
CUSIM_VT_INLINE ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y,
                                           unsigned long long z) {
  ulonglong3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
typedef struct __attribute__((aligned(16))) longlong4 {
  long long x, y, z, w;
} longlong4;
CUSIM_VT_INLINE longlong4 make_longlong4(long long x, long long y, long long z, long long w) {
  longlong4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) ulonglong4 {
  unsigned long long x, y, z, w;
} ulonglong4;
CUSIM_VT_INLINE ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y,
                                           unsigned long long z, unsigned long long w) {
  ulonglong4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) long4_16a {
  long x, y, z, w;
} long4_16a;
CUSIM_VT_INLINE long4_16a make_long4_16a(long x, long y, long z, long w) {
  long4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(32))) long4_32a {
  long x, y, z, w;
} long4_32a;
CUSIM_VT_INLINE long4_32a make_long4_32a(long x, long y, long z, long w) {
  long4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) ulong4_16a {
  unsigned long x, y, z, w;
} ulong4_16a;
CUSIM_VT_INLINE ulong4_16a make_ulong4_16a(unsigned long x, unsigned long y, unsigned long z,
                                           unsigned long w) {
  ulong4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(32))) ulong4_32a {
  unsigned long x, y, z, w;
} ulong4_32a;
CUSIM_VT_INLINE ulong4_32a make_ulong4_32a(unsigned long x, unsigned long y, unsigned long z,
                                           unsigned long w) {
  ulong4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) longlong4_16a {
  long long x, y, z, w;
} longlong4_16a;
CUSIM_VT_INLINE longlong4_16a make_longlong4_16a(long long x, long long y, long long z,
                                                 long long w) {
  longlong4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(32))) longlong4_32a {
  long long x, y, z, w;
} longlong4_32a;
CUSIM_VT_INLINE longlong4_32a make_longlong4_32a(long long x, long long y, long long z,
                                                 long long w) {
  longlong4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) ulonglong4_16a {
  unsigned long long x, y, z, w;
} ulonglong4_16a;
CUSIM_VT_INLINE ulonglong4_16a make_ulonglong4_16a(unsigned long long x, unsigned long long y,
                                                   unsigned long long z, unsigned long long w) {
  ulonglong4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(32))) ulonglong4_32a {
  unsigned long long x, y, z, w;
} ulonglong4_32a;
CUSIM_VT_INLINE ulonglong4_32a make_ulonglong4_32a(unsigned long long x, unsigned long long y,
                                                   unsigned long long z, unsigned long long w) {
  ulonglong4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(16))) double4_16a {
  double x, y, z, w;
} double4_16a;
CUSIM_VT_INLINE double4_16a make_double4_16a(double x, double y, double z, double w) {
  double4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
typedef struct __attribute__((aligned(32))) double4_32a {
  double x, y, z, w;
} double4_32a;
CUSIM_VT_INLINE double4_32a make_double4_32a(double x, double y, double z, double w) {
  double4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
/* dim3: a plain struct in C; in C++ it has CUDA's constructors (missing sizes are 1). */
#if defined(__cplusplus)
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 {
  unsigned int x, y, z;
} dim3;
#endif
typedef struct dim3 dim3;

#endif
