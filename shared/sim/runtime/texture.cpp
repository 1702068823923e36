// Texture objects and CUDA arrays (issue 18; header: include/cusim_texture.h).
//
// A CUDA array is host memory with its channel format, width and height (row-major, no padding).
// A texture object is an entry in a fixed table, its handle the entry's index plus one, so a
// fetch inside a kernel reads its descriptor with one atomic load. Fetches follow the CUDA
// Programming Guide's "Texture Fetching" appendix: with normalized coordinates x is scaled by the
// size N first; point sampling reads texel floor(x); linear filtering reads texels i = floor(xB)
// and i + 1, xB = x - 0.5, weighted (1 - a, a) with a = frac(xB), in two dimensions the four
// neighbours with weights a and b. The GPU stores a and b in 9-bit fixed point (8 fraction bits):
// here they are rounded to the nearest multiple of 1/256 too, so a filtered value lies as far from
// the exact interpolation as a GPU's, but the GPU's rounding is not documented: a check of linear
// fetches needs a tolerance of 1/256 of the neighbouring texels' difference (docs/architecture.md).
// Address modes apply to each texel index: clamp to [0, N-1]; border reads the border colour;
// wrap takes i mod N; mirror reflects i in a period of 2N. Wrap and mirror exist only with
// normalized coordinates; with unnormalized ones the GPU clamps, and so does this.
#include "internal.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#if defined(CUSIM_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

struct cudaArray {
  cudaChannelFormatDesc desc;
  size_t width = 0, height = 0; // texels; height 1 for a 1-D array
  size_t texel = 0;             // bytes per texel
  int dims = 2;                 // 1 when cudaMallocArray was given height 0
  unsigned flags = 0;           // cudaArraySurfaceLoadStore, cudaArrayLayered, cudaArrayCubemap
  size_t depth = 1;             // layers (cudaArrayLayered) or faces (6, cudaArrayCubemap)
  bool layered = false, cubemap = false;
  unsigned char *data = nullptr;
  bool freed = false;
};

namespace cusim {
namespace tex {
namespace {

using rt::report;
using rt::set_error;

struct texture {
  cudaResourceDesc res;
  cudaTextureDesc desc;
  cudaChannelFormatDesc fmt;
  cudaArray *array = nullptr; // for an array resource (checked for freed at each fetch)
  const unsigned char *base = nullptr;
  size_t width = 0, height = 1, pitch = 0, texel = 0;
  size_t layers = 1; // of a layered or cubemap array
  bool layered = false, cubemap = false;
  int channels = 0;
  bool float_result = false; // float texels, or 8/16-bit integers read as normalized floats
};

constexpr size_t table_size = 1 << 16;
std::atomic<texture *> table[table_size];
std::mutex mu; // creation, destruction and the array registry
std::set<const cudaArray *> arrays;
size_t next_slot = 0;

bool valid_format(const cudaChannelFormatDesc &d, size_t *texel, int *channels) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  int n = 0, total = 0;
  for (int c = 0; c < 4; ++c) {
    if (bits[c] == 0) {
      for (int k = c + 1; k < 4; ++k)
        if (bits[k] != 0) return false; // channels come first: x, then y...
      break;
    }
    if (bits[c] != bits[0]) return false;
    if (bits[c] != 8 && bits[c] != 16 && bits[c] != 32) return false;
    ++n;
    total += bits[c];
  }
  if (n == 0 || n == 3) return false;
  if (d.f == cudaChannelFormatKindFloat && bits[0] == 8) return false;
  if (d.f != cudaChannelFormatKindFloat && d.f != cudaChannelFormatKindSigned &&
      d.f != cudaChannelFormatKindUnsigned)
    return false;
  *texel = (size_t)total / 8;
  *channels = n;
  return true;
}

float half_to_float(uint16_t h) {
  unsigned sign = h >> 15, exp = (h >> 10) & 31, frac = h & 1023;
  float v;
  if (exp == 0)
    v = std::ldexp((float)frac, -24);
  else if (exp == 31)
    v = frac ? NAN : INFINITY;
  else
    v = std::ldexp((float)(frac | 1024), (int)exp - 25);
  return sign ? -v : v;
}

// One channel of a texel as a float: the value (float texels), or normalized (integers).
float channel_value(const texture &t, const unsigned char *p, int c) {
  const int bits = t.fmt.x;
  const unsigned char *q = p + (size_t)c * (size_t)bits / 8;
  if (t.fmt.f == cudaChannelFormatKindFloat) {
    if (bits == 32) {
      float f;
      std::memcpy(&f, q, 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, q, 2);
    return half_to_float(h);
  }
  bool is_signed = t.fmt.f == cudaChannelFormatKindSigned;
  double v, max;
  if (bits == 8) {
    v = is_signed ? (double)(int8_t)*q : (double)*q;
    max = is_signed ? 127.0 : 255.0;
  } else if (bits == 16) {
    uint16_t u;
    std::memcpy(&u, q, 2);
    v = is_signed ? (double)(int16_t)u : (double)u;
    max = is_signed ? 32767.0 : 65535.0;
  } else {
    uint32_t u;
    std::memcpy(&u, q, 4);
    return is_signed ? (float)(int32_t)u : (float)u; // not readable normalized (refused earlier)
  }
  float r = (float)(v / max);
  return r < -1.0f ? -1.0f : r;
}

[[noreturn]] void fetch_failed(const char *what, cudaTextureObject_t h, const char *why) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s of texture object %llu: %s", what, h, why);
  rt::fail_running_block(cudaErrorLaunchFailure, buf);
}

const texture &lookup_fetch(cudaTextureObject_t h, const char *what) {
  texture *t = h >= 1 && h <= table_size ? table[h - 1].load(std::memory_order_acquire) : nullptr;
  if (t == nullptr)
    fetch_failed(what, h,
                 "not a live texture object (never created, or destroyed with "
                 "cudaDestroyTextureObject)");
  if (t->array != nullptr && t->array->freed)
    fetch_failed(what, h, "its CUDA array was freed with cudaFreeArray");
  return *t;
}

// The texel index i of a dimension of n texels under an address mode; -1 for the border.
long long address(long long i, long long n, cudaTextureAddressMode mode) {
  switch (mode) {
  case cudaAddressModeBorder:
    return i < 0 || i >= n ? -1 : i;
  case cudaAddressModeWrap: {
    long long m = i % n;
    return m < 0 ? m + n : m;
  }
  case cudaAddressModeMirror: {
    long long m = i % (2 * n);
    if (m < 0) m += 2 * n;
    return m < n ? m : 2 * n - 1 - m;
  }
  default:
    return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

cudaTextureAddressMode mode_of(const texture &t, int d) {
  cudaTextureAddressMode m = t.desc.addressMode[d];
  if (!t.desc.normalizedCoords && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
    return cudaAddressModeClamp; // as the GPU: wrap and mirror need normalized coordinates
  return m;
}

// Texel (i, j) as float channels, or the border colour.
void texel_float(const texture &t, long long i, long long j, float out[4]) {
  if (i < 0 || j < 0) {
    for (int c = 0; c < 4; ++c) out[c] = t.desc.borderColor[c];
    return;
  }
  const unsigned char *p = t.base + (size_t)j * t.pitch + (size_t)i * t.texel;
  for (int c = 0; c < 4; ++c) out[c] = c < t.channels ? channel_value(t, p, c) : 0.0f;
}

// The fractional weight as the GPU keeps it: 8 fraction bits.
float fixed_weight(float a) {
  return std::floor(a * 256.0f + 0.5f) / 256.0f;
}

void check_dims(const texture &t, int dims, cudaTextureObject_t h, const char *what) {
  if (t.res.resType == cudaResourceTypeLinear)
    fetch_failed(what, h, "a texture over linear memory is read with tex1Dfetch(obj, index)");
  if (dims == 1 && t.height > 1) fetch_failed(what, h, "tex1D of a 2-D texture (use tex2D)");
}

void check_channels(const texture &t, int channels, cudaTextureObject_t h, const char *what) {
  if (channels == t.channels) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "the type read has %d channel%s and the texels %d", channels,
                channels == 1 ? "" : "s", t.channels);
  fetch_failed(what, h, buf);
}

} // namespace

namespace {
void fetch_float_in(const texture &t, cudaTextureObject_t h, int dims, const float *c, float out[4],
                    int channels, const char *what) {
  check_dims(t, dims, h, what);
  check_channels(t, channels, h, what);
  if (!t.float_result)
    fetch_failed(what, h,
                 "a float result from integer texels needs cudaReadModeNormalizedFloat (8- and "
                 "16-bit texels only)");
  const long long n[2] = {(long long)t.width, (long long)t.height};
  float x[2] = {0.0f, 0.0f};
  for (int d = 0; d < dims; ++d) x[d] = t.desc.normalizedCoords ? c[d] * (float)n[d] : c[d];
  const cudaTextureAddressMode m0 = mode_of(t, 0), m1 = mode_of(t, 1);
  if (t.desc.filterMode == cudaFilterModePoint) {
    long long i = address((long long)std::floor(x[0]), n[0], m0);
    long long j = dims == 2 ? address((long long)std::floor(x[1]), n[1], m1) : 0;
    texel_float(t, i, j, out);
    return;
  }
  float xb = x[0] - 0.5f, fi = std::floor(xb), a = fixed_weight(xb - fi);
  long long i0 = address((long long)fi, n[0], m0), i1 = address((long long)fi + 1, n[0], m0);
  float t00[4], t10[4];
  if (dims == 1) {
    texel_float(t, i0, 0, t00);
    texel_float(t, i1, 0, t10);
    for (int k = 0; k < 4; ++k) out[k] = (1.0f - a) * t00[k] + a * t10[k];
    return;
  }
  float yb = x[1] - 0.5f, fj = std::floor(yb), b = fixed_weight(yb - fj);
  long long j0 = address((long long)fj, n[1], m1), j1 = address((long long)fj + 1, n[1], m1);
  float t01[4], t11[4];
  texel_float(t, i0, j0, t00);
  texel_float(t, i1, j0, t10);
  texel_float(t, i0, j1, t01);
  texel_float(t, i1, j1, t11);
  for (int k = 0; k < 4; ++k)
    out[k] = (1.0f - a) * (1.0f - b) * t00[k] + a * (1.0f - b) * t10[k] + (1.0f - a) * b * t01[k] +
             a * b * t11[k];
}

void fetch_texel_in(const texture &t, cudaTextureObject_t h, int dims, const float *c, void *out,
                    size_t size, const char *what) {
  check_dims(t, dims, h, what);
  if (size != t.texel)
    fetch_failed(what, h, "the type read has another size than the texture's texels");
  if (t.desc.readMode == cudaReadModeNormalizedFloat)
    fetch_failed(what, h,
                 "a cudaReadModeNormalizedFloat texture is read as float, float2 or "
                 "float4");
  if (t.desc.filterMode == cudaFilterModeLinear)
    fetch_failed(what, h,
                 "linear filtering returns floats; integer texels are read with "
                 "cudaFilterModePoint");
  const long long n[2] = {(long long)t.width, (long long)t.height};
  long long idx[2] = {0, 0};
  for (int d = 0; d < dims; ++d) {
    float x = t.desc.normalizedCoords ? c[d] * (float)n[d] : c[d];
    idx[d] = address((long long)std::floor(x), n[d], mode_of(t, d));
  }
  if (idx[0] < 0 || idx[1] < 0) { // the border colour, converted to the texel's channels
    unsigned char bytes[16] = {0};
    for (int k = 0; k < t.channels; ++k) {
      const int bits = t.fmt.x;
      long long v = (long long)t.desc.borderColor[k];
      std::memcpy(bytes + (size_t)k * bits / 8, &v, (size_t)bits / 8); // little-endian
    }
    std::memcpy(out, bytes, size);
    return;
  }
  std::memcpy(out, t.base + (size_t)idx[1] * t.pitch + (size_t)idx[0] * t.texel, size);
}

void check_not_layered(const texture &t, cudaTextureObject_t h, const char *what) {
  if (t.cubemap) fetch_failed(what, h, "a cubemap texture is read with texCubemap");
  if (t.layered)
    fetch_failed(what, h, "a layered texture is read with tex1DLayered or tex2DLayered");
}

// One layer (or cubemap face) of a layered texture, as a texture of its own.
texture layer_of(const texture &t, cudaTextureObject_t h, int dims, int layer, const char *what) {
  if (dims == -2 && !t.cubemap) fetch_failed(what, h, "texCubemap of a texture that is no cubemap");
  if (dims != -2 && !t.layered)
    fetch_failed(what, h, "a layered fetch of a texture that is not layered");
  if (layer < 0 || (size_t)layer >= t.layers) {
    char why[160];
    std::snprintf(why, sizeof why,
                  "layer %d is outside the array's %zu layers (the simulator stops here)", layer,
                  t.layers);
    fetch_failed(what, h, why);
  }
  texture one = t;
  one.base = t.base + (size_t)layer * t.pitch * t.height;
  one.layered = one.cubemap = false;
  one.layers = 1;
  if (dims == -2) one.desc.normalizedCoords = 1; // a face's coordinates are (s/m + 1) / 2
  return one;
}
} // namespace

void fetch_float(cudaTextureObject_t h, int dims, const float *c, float out[4], int channels,
                 const char *what) {
  const texture &t = lookup_fetch(h, what);
  check_not_layered(t, h, what);
  fetch_float_in(t, h, dims, c, out, channels, what);
}

void fetch_texel(cudaTextureObject_t h, int dims, const float *c, void *out, size_t size,
                 bool is_float_type, const char *what) {
  (void)is_float_type;
  const texture &t = lookup_fetch(h, what);
  check_not_layered(t, h, what);
  fetch_texel_in(t, h, dims, c, out, size, what);
}

void fetch_float_layer(cudaTextureObject_t h, int dims, const float *c, int layer, float out[4],
                       int channels, const char *what) {
  const texture one = layer_of(lookup_fetch(h, what), h, dims, layer, what);
  fetch_float_in(one, h, dims < 0 ? -dims : dims, c, out, channels, what);
}

void fetch_texel_layer(cudaTextureObject_t h, int dims, const float *c, int layer, void *out,
                       size_t size, const char *what) {
  const texture one = layer_of(lookup_fetch(h, what), h, dims, layer, what);
  fetch_texel_in(one, h, dims < 0 ? -dims : dims, c, out, size, what);
}

// The Programming Guide's cubemap table: the axis of largest magnitude picks the face, the other
// two give (s, t), and the face is read at ((s/m + 1) / 2, (t/m + 1) / 2). Where two magnitudes
// tie the guide says nothing; here x wins over y and y over z.
void cubemap_face(float x, float y, float z, float c[2], int *face) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z), m, sc, tc;
  if (ax >= ay && ax >= az) {
    *face = x >= 0 ? 0 : 1;
    m = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    *face = y >= 0 ? 2 : 3;
    m = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    *face = z >= 0 ? 4 : 5;
    m = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  c[0] = m > 0 ? (sc / m + 1.0f) * 0.5f : 0.5f;
  c[1] = m > 0 ? (tc / m + 1.0f) * 0.5f : 0.5f;
}

void fetch_index(cudaTextureObject_t h, int x, void *out, size_t size, bool is_float_type,
                 float out_float[4], int channels) {
  const texture &t = lookup_fetch(h, "tex1Dfetch");
  if (is_float_type) check_channels(t, channels, h, "tex1Dfetch");
  if (t.res.resType != cudaResourceTypeLinear)
    fetch_failed("tex1Dfetch", h,
                 "tex1Dfetch reads textures over linear memory only (a CUDA "
                 "array is read with tex1D or tex2D)");
  const bool in_range = x >= 0 && (size_t)x < t.width;
  if (is_float_type) {
    if (!t.float_result)
      fetch_failed("tex1Dfetch", h,
                   "a float result from integer texels needs cudaReadModeNormalizedFloat (8- and "
                   "16-bit texels only)");
    if (!in_range) { // out of range: zero, as the Programming Guide says for tex1Dfetch
      for (int k = 0; k < 4; ++k) out_float[k] = 0.0f;
      return;
    }
    texel_float(t, x, 0, out_float);
    return;
  }
  if (size != t.texel)
    fetch_failed("tex1Dfetch", h, "the type read has another size than the texture's texels");
  if (t.desc.readMode == cudaReadModeNormalizedFloat)
    fetch_failed("tex1Dfetch", h,
                 "a cudaReadModeNormalizedFloat texture is read as float, float2 or float4");
  if (!in_range)
    std::memset(out, 0, size);
  else
    std::memcpy(out, t.base + (size_t)x * t.texel, size);
}

// Surface objects (surf1Dread/write, surf2Dread/write): a second table, whose handles carry bit
// 32 so that a texture object passed as a surface (or the reverse) is not found. A surface reads
// and writes the bytes of its array: x is a byte offset, as in the PTX `suld.b`/`sust.b` that
// nvcc emits; PTX leaves an x that is not a multiple of the access size undefined, so it stops
// the kernel here. Out of range, cudaBoundaryModeTrap stops the kernel (a GPU traps: "unspecified
// launch failure"), cudaBoundaryModeZero reads zeros and drops the write, cudaBoundaryModeClamp
// moves to the nearest element. Surface accesses are not race-checked (docs/other-programs.md).
constexpr unsigned long long surface_tag = 1ull << 32;
struct surface {
  cudaResourceDesc res;
  cudaArray *array = nullptr;
};
std::atomic<surface *> surfaces[table_size];
size_t next_surface = 0;

surface *surface_at(cudaSurfaceObject_t h) {
  if ((h & ~0xFFFFFFFFull) != surface_tag) return nullptr;
  unsigned long long i = h & 0xFFFFFFFFull;
  return i >= 1 && i <= table_size ? surfaces[i - 1].load(std::memory_order_acquire) : nullptr;
}

[[noreturn]] void surface_failed(const char *what, cudaSurfaceObject_t h, const char *why) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s of surface object %#llx: %s", what, h, why);
  rt::fail_running_block(cudaErrorLaunchFailure, buf);
}

void surface_access(cudaSurfaceObject_t h, int dims, int x, int y, void *data, size_t size,
                    int mode, bool write, const char *what) {
  surface *s = surface_at(h);
  if (s == nullptr)
    surface_failed(what, h,
                   "not a live surface object (never created, or destroyed with "
                   "cudaDestroySurfaceObject)");
  cudaArray *a = s->array;
  if (a->freed) surface_failed(what, h, "its CUDA array was freed with cudaFreeArray");
  if (a->layered || a->cubemap)
    surface_failed(what, h,
                   "a layered or cubemap array (surf1DLayered, surf2DLayered and surfCubemap are "
                   "not simulated)");
  if (dims != a->dims) {
    char why[160];
    std::snprintf(why, sizeof why, "a %d-D access to a %d-D CUDA array (use surf%dD%s)", dims,
                  a->dims, a->dims, write ? "write" : "read");
    surface_failed(what, h, why);
  }
  if (x % (int)size != 0) {
    char why[200];
    std::snprintf(why, sizeof why,
                  "x = %d is not a multiple of the %zu bytes accessed (x is in bytes; PTX leaves "
                  "a misaligned surface access undefined)",
                  x, size);
    surface_failed(what, h, why);
  }
  const long long row = (long long)(a->width * a->texel), rows = (long long)a->height;
  long long bx = x, by = dims == 2 ? y : 0;
  bool in_range = bx >= 0 && bx + (long long)size <= row && by >= 0 && by < rows;
  if (!in_range) {
    if (mode == cudaBoundaryModeZero) {
      if (!write) std::memset(data, 0, size);
      return;
    }
    if (mode == cudaBoundaryModeClamp && (long long)size <= row) {
      long long last = (row - (long long)size) / (long long)size * (long long)size;
      bx = bx < 0 ? 0 : (bx > last ? last : bx);
      by = by < 0 ? 0 : (by >= rows ? rows - 1 : by);
    } else {
      char why[200];
      std::snprintf(why, sizeof why,
                    "(x = %d bytes, y = %d) is outside the array's %lld bytes x %lld rows "
                    "(cudaBoundaryModeTrap)",
                    x, dims == 2 ? y : 0, row, rows);
      surface_failed(what, h, why);
    }
  }
  unsigned char *cell = a->data + by * row + bx;
  if (write)
    std::memcpy(cell, data, size);
  else
    std::memcpy(data, cell, size);
}

} // namespace tex
} // namespace cusim

using namespace cusim;
using namespace cusim::tex;

namespace {

bool live_array(const cudaArray *a) {
  std::lock_guard<std::mutex> lock(mu);
  return a != nullptr && arrays.count(a) != 0 && !a->freed;
}

// Puts an object in the first free slot of a table from `next` on; returns the slot plus one (the
// handle's index), or 0 when every slot is taken.
template <class T>
size_t take_slot(std::atomic<T *> (&slots)[table_size], size_t &next, T *object) {
  std::lock_guard<std::mutex> lock(mu);
  for (size_t k = 0; k < table_size; ++k) {
    size_t slot = (next + k) % table_size;
    if (slots[slot].load(std::memory_order_relaxed) == nullptr) {
      slots[slot].store(object, std::memory_order_release);
      next = slot + 1;
      return slot + 1;
    }
  }
  return 0;
}

// A copy between host or device memory and an array: checks the direction against where the
// pointer lies (device memory must hold the whole range).
cudaError_t check_side(const char *api, const void *p, size_t bytes, cudaMemcpyKind kind,
                       bool array_is_dst) {
  rt::lookup l = rt::find(p);
  bool device = l.live && (l.kind == rt::mem_kind::device || l.kind == rt::mem_kind::pool ||
                           l.kind == rt::mem_kind::symbol);
  bool host_side = kind == (array_is_dst ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  bool device_side = kind == cudaMemcpyDeviceToDevice;
  if (kind == cudaMemcpyDefault || kind == cudaMemcpyHostToHost) {
    host_side = !device;
    device_side = device;
  }
  if (!host_side && !device_side) {
    report("%s: the copy's kind does not go %s a CUDA array", api, array_is_dst ? "to" : "from");
    return set_error(cudaErrorInvalidMemcpyDirection);
  }
  if (host_side && device) {
    report("%s: %p is device memory, but the kind says host memory", api, p);
    return set_error(cudaErrorInvalidValue);
  }
  if (device_side) {
    if (!device) {
      report("%s: %p is not device memory, but the kind says cudaMemcpyDeviceToDevice", api, p);
      return set_error(cudaErrorInvalidValue);
    }
    if ((uintptr_t)p + bytes > l.base + l.size) {
      report("%s: %zu bytes at %p run past the end of its device memory (%zu bytes at %p)", api,
             bytes, p, l.size, (void *)l.base);
      return set_error(cudaErrorInvalidValue);
    }
  }
  return cudaSuccess;
}

cudaError_t copy_2d(const char *api, cudaArray *a, size_t w_offset, size_t h_offset,
                    unsigned char *mem, size_t pitch, size_t width, size_t height,
                    cudaMemcpyKind kind, bool to_array) {
  if (!live_array(a)) {
    report("%s: %p is not a live CUDA array (cudaMallocArray)", api, (void *)a);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  if (rt::sticky() != cudaSuccess) return rt::sticky();
  if (height == 0 || width == 0) return cudaSuccess;
  const size_t row = a->width * a->texel;
  if (w_offset + width > row || h_offset + height > a->height || pitch < width) {
    report("%s: %zu x %zu bytes at offset (%zu bytes, row %zu) do not fit the array's %zu x %zu "
           "bytes (or the pitch %zu is less than the width)",
           api, width, height, w_offset, h_offset, row, a->height, pitch);
    return set_error(cudaErrorInvalidValue);
  }
  cudaError_t e = check_side(api, mem, pitch * (height - 1) + width, kind, to_array);
  if (e != cudaSuccess) return e;
  rt::sync_legacy(); // a blocking copy on the legacy stream: earlier work (a kernel) comes first
  for (size_t r = 0; r < height; ++r) {
    unsigned char *cell = a->data + (h_offset + r) * row + w_offset;
    if (to_array)
      std::memcpy(cell, mem + r * pitch, width);
    else
      std::memcpy(mem + r * pitch, cell, width);
  }
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  cudaChannelFormatDesc d;
  d.x = x;
  d.y = y;
  d.z = z;
  d.w = w;
  d.f = f;
  return d;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags) {
  size_t texel = 0;
  int channels = 0;
  if (array == nullptr || desc == nullptr || width == 0) return set_error(cudaErrorInvalidValue);
  if (!valid_format(*desc, &texel, &channels)) {
    report("cudaMallocArray: the channel format {%d, %d, %d, %d, kind %d} is not one the "
           "simulator (or a GPU) has: 1, 2 or 4 channels of 8, 16 or 32 bits",
           desc->x, desc->y, desc->z, desc->w, (int)desc->f);
    return set_error(cudaErrorInvalidChannelDescriptor);
  }
  if ((flags & ~(unsigned)cudaArraySurfaceLoadStore) != 0) {
    report("cudaMallocArray: flags %#x are not simulated (only cudaArraySurfaceLoadStore is)",
           flags);
    return set_error(cudaErrorNotSupported);
  }
  cudaArray *a = new cudaArray;
  a->desc = *desc;
  a->width = width;
  a->height = height == 0 ? 1 : height;
  a->dims = height == 0 ? 1 : 2;
  a->flags = flags;
  a->texel = texel;
  a->data = static_cast<unsigned char *>(std::calloc(a->width * a->height, texel));
  if (a->data == nullptr) {
    delete a;
    return set_error(cudaErrorMemoryAllocation);
  }
#if defined(CUSIM_ASAN)
  // CUDA frees what a program did not at exit (context teardown): not a leak to report.
  __lsan_ignore_object(a);
  __lsan_ignore_object(a->data);
#endif
  {
    std::lock_guard<std::mutex> lock(mu);
    arrays.insert(a);
  }
  *array = a;
  return cudaSuccess;
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (array == nullptr) return cudaSuccess;
  if (!live_array(array)) {
    report("cudaFreeArray: %p is not a live CUDA array (freed twice?)", (void *)array);
    return set_error(cudaErrorInvalidValue);
  }
  rt::run_queue(); // as cudaFree: queued kernels that read it run first
  std::lock_guard<std::mutex> lock(mu);
  std::free(array->data);
  array->data = nullptr;
  array->freed = true; // the struct stays, so a texture over it says what happened
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  if (desc == nullptr || !live_array(array)) return set_error(cudaErrorInvalidValue);
  *desc = array->desc;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_2d("cudaMemcpy2DToArray", dst, wOffset, hOffset,
                 static_cast<unsigned char *>(const_cast<void *>(src)), spitch, width, height, kind,
                 true);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  cudaMemcpyKind kind) {
  return copy_2d("cudaMemcpy2DFromArray", const_cast<cudaArray *>(src), wOffset, hOffset,
                 static_cast<unsigned char *>(dst), dpitch, width, height, kind, false);
}

// The deprecated linear forms: count bytes from (wOffset, hOffset) on, row after row.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, cudaMemcpyKind kind) {
  if (!live_array(dst)) return copy_2d("cudaMemcpyToArray", dst, 0, 0, nullptr, 0, 0, 0, kind, 1);
  size_t row = dst->width * dst->texel;
  if (wOffset == 0 && count % row == 0)
    return copy_2d("cudaMemcpyToArray", dst, 0, hOffset,
                   static_cast<unsigned char *>(const_cast<void *>(src)), row, row, count / row,
                   kind, true);
  return copy_2d("cudaMemcpyToArray", dst, wOffset, hOffset,
                 static_cast<unsigned char *>(const_cast<void *>(src)), count, count, 1, kind,
                 true);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, cudaMemcpyKind kind) {
  cudaArray *a = const_cast<cudaArray *>(src);
  if (!live_array(a)) return copy_2d("cudaMemcpyFromArray", a, 0, 0, nullptr, 0, 0, 0, kind, 0);
  size_t row = a->width * a->texel;
  if (wOffset == 0 && count % row == 0)
    return copy_2d("cudaMemcpyFromArray", a, 0, hOffset, static_cast<unsigned char *>(dst), row,
                   row, count / row, kind, false);
  return copy_2d("cudaMemcpyFromArray", a, wOffset, hOffset, static_cast<unsigned char *>(dst),
                 count, count, 1, kind, false);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const cudaResourceDesc *pResDesc,
                                    const cudaTextureDesc *pTexDesc,
                                    const cudaResourceViewDesc *pResViewDesc) {
  const char *api = "cudaCreateTextureObject";
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr)
    return set_error(cudaErrorInvalidValue);
  if (pResViewDesc != nullptr) {
    report("%s: resource views are not simulated (pass NULL)", api);
    return set_error(cudaErrorNotSupported);
  }
  texture *t = new texture;
  t->res = *pResDesc;
  t->desc = *pTexDesc;
  auto refuse = [&](cudaError_t e) {
    delete t;
    return set_error(e);
  };
  switch (pResDesc->resType) {
  case cudaResourceTypeArray: {
    cudaArray *a = pResDesc->res.array.array;
    if (!live_array(a)) {
      report("%s: res.array.array %p is not a live CUDA array", api, (void *)a);
      return refuse(cudaErrorInvalidResourceHandle);
    }
    t->array = a;
    t->fmt = a->desc;
    t->base = a->data;
    t->width = a->width;
    t->height = a->height;
    t->texel = a->texel;
    t->pitch = a->width * a->texel;
    t->layers = a->depth;
    t->layered = a->layered;
    t->cubemap = a->cubemap;
    if (a->cubemap && pTexDesc->seamlessCubemap) {
      report("%s: seamless cubemap filtering is not simulated (seamlessCubemap = 0 reads each "
             "face on its own)",
             api);
      return refuse(cudaErrorNotSupported);
    }
    break;
  }
  case cudaResourceTypeLinear:
  case cudaResourceTypePitch2D: {
    bool linear = pResDesc->resType == cudaResourceTypeLinear;
    void *p = linear ? pResDesc->res.linear.devPtr : pResDesc->res.pitch2D.devPtr;
    t->fmt = linear ? pResDesc->res.linear.desc : pResDesc->res.pitch2D.desc;
    int channels = 0;
    if (!valid_format(t->fmt, &t->texel, &channels)) {
      report("%s: the channel format {%d, %d, %d, %d, kind %d} is not one of 1, 2 or 4 channels "
             "of 8, 16 or 32 bits",
             api, t->fmt.x, t->fmt.y, t->fmt.z, t->fmt.w, (int)t->fmt.f);
      return refuse(cudaErrorInvalidChannelDescriptor);
    }
    rt::lookup l = rt::find(p);
    size_t bytes;
    if (linear) {
      t->width = pResDesc->res.linear.sizeInBytes / t->texel;
      t->height = 1;
      t->pitch = pResDesc->res.linear.sizeInBytes;
      bytes = pResDesc->res.linear.sizeInBytes;
    } else {
      t->width = pResDesc->res.pitch2D.width;
      t->height = pResDesc->res.pitch2D.height;
      t->pitch = pResDesc->res.pitch2D.pitchInBytes;
      bytes = t->height == 0 ? 0 : t->pitch * (t->height - 1) + t->width * t->texel;
      if (t->pitch < t->width * t->texel || t->pitch % 32 != 0) {
        report("%s: pitch %zu bytes is less than a row (%zu) or not a multiple of the texture "
               "pitch alignment (32)",
               api, t->pitch, t->width * t->texel);
        return refuse(cudaErrorInvalidValue);
      }
    }
    if (t->width == 0 || t->height == 0) return refuse(cudaErrorInvalidValue);
    if (!l.live || (uintptr_t)p + bytes > l.base + l.size ||
        (l.kind != rt::mem_kind::device && l.kind != rt::mem_kind::managed &&
         l.kind != rt::mem_kind::pool)) {
      report("%s: %zu bytes at %p are not inside one allocation of device memory", api, bytes, p);
      return refuse(cudaErrorInvalidValue);
    }
    t->base = static_cast<const unsigned char *>(p);
    break;
  }
  default:
    report("%s: mipmapped arrays are not simulated", api);
    return refuse(cudaErrorNotSupported);
  }
  size_t dummy = 0;
  valid_format(t->fmt, &dummy, &t->channels);
  bool small_int = t->fmt.f != cudaChannelFormatKindFloat && t->fmt.x <= 16;
  if (t->desc.readMode == cudaReadModeNormalizedFloat && !small_int) {
    report("%s: cudaReadModeNormalizedFloat needs 8- or 16-bit integer texels", api);
    return refuse(cudaErrorInvalidValue);
  }
  t->float_result =
      t->fmt.f == cudaChannelFormatKindFloat || t->desc.readMode == cudaReadModeNormalizedFloat;
  if (t->desc.filterMode == cudaFilterModeLinear && !t->float_result) {
    report("%s: linear filtering needs float texels or cudaReadModeNormalizedFloat (the "
           "simulator refuses what a GPU would return garbage for)",
           api);
    return refuse(cudaErrorInvalidValue);
  }
  for (int d = 0; d < 3; ++d) {
    if ((unsigned)t->desc.addressMode[d] > (unsigned)cudaAddressModeBorder) {
      report("%s: addressMode[%d] is %d, not a cudaTextureAddressMode", api, d,
             (int)t->desc.addressMode[d]);
      return refuse(cudaErrorInvalidValue);
    }
  }
  size_t slot = take_slot(table, next_slot, t);
  if (slot == 0) {
    delete t;
    report("%s: more than %zu texture objects live at once", api, table_size);
    return set_error(cudaErrorMemoryAllocation);
  }
  *pTexObject = (cudaTextureObject_t)slot;
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  if (texObject == 0) return cudaSuccess;
  if (texObject > table_size || table[texObject - 1].load() == nullptr) {
    report("cudaDestroyTextureObject: %llu is not a live texture object (destroyed twice?)",
           texObject);
    return set_error(cudaErrorInvalidValue);
  }
  rt::run_queue(); // queued kernels that read it run first
  std::lock_guard<std::mutex> lock(mu);
  texture *t = table[texObject - 1].exchange(nullptr);
  delete t;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject) {
  texture *t = texObject >= 1 && texObject <= table_size ? table[texObject - 1].load() : nullptr;
  if (pResDesc == nullptr || t == nullptr) return set_error(cudaErrorInvalidValue);
  *pResDesc = t->res;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject) {
  texture *t = texObject >= 1 && texObject <= table_size ? table[texObject - 1].load() : nullptr;
  if (pTexDesc == nullptr || t == nullptr) return set_error(cudaErrorInvalidValue);
  *pTexDesc = t->desc;
  return cudaSuccess;
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const cudaChannelFormatDesc *desc,
                              cudaExtent extent, unsigned int flags) {
  const char *api = "cudaMalloc3DArray";
  if (array == nullptr || desc == nullptr || extent.width == 0)
    return set_error(cudaErrorInvalidValue);
  const unsigned known = cudaArrayLayered | cudaArrayCubemap | cudaArraySurfaceLoadStore;
  if ((flags & ~known) != 0 || ((flags & cudaArrayLayered) && (flags & cudaArrayCubemap))) {
    report("%s: flags %#x are not simulated (layered, cubemap and surface arrays are; layered "
           "cubemaps and texture gather are not)",
           api, flags);
    return set_error(cudaErrorNotSupported);
  }
  const bool layered = flags & cudaArrayLayered, cubemap = flags & cudaArrayCubemap;
  if (!layered && !cubemap) {
    if (extent.depth != 0) {
      report("%s: 3-D CUDA arrays (tex3D, surf3D) are not simulated", api);
      return set_error(cudaErrorNotSupported);
    }
    return cudaMallocArray(array, desc, extent.width, extent.height, flags);
  }
  if (cubemap && (extent.width != extent.height || extent.depth != 6)) {
    report("%s: a cubemap array is width x width x 6 (got %zu x %zu x %zu)", api, extent.width,
           extent.height, extent.depth);
    return set_error(cudaErrorInvalidValue);
  }
  if (layered && extent.depth == 0) {
    report("%s: a layered array needs at least one layer (extent.depth)", api);
    return set_error(cudaErrorInvalidValue);
  }
  cudaArray_t a = nullptr;
  // One tall 2-D array holds the layers one after another; then it is marked layered.
  cudaError_t e = cudaMallocArray(&a, desc, extent.width,
                                  (extent.height == 0 ? 1 : extent.height) * extent.depth,
                                  flags & cudaArraySurfaceLoadStore);
  if (e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(mu);
  a->height = extent.height == 0 ? 1 : extent.height;
  a->dims = extent.height == 0 ? 1 : 2;
  a->depth = extent.depth;
  a->layered = layered;
  a->cubemap = cubemap;
  a->flags = flags;
  *array = a;
  return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p) {
  const char *api = "cudaMemcpy3D";
  if (p == nullptr) return set_error(cudaErrorInvalidValue);
  const cudaExtent &x = p->extent;
  if ((p->srcArray != nullptr && p->srcPtr.ptr != nullptr) ||
      (p->dstArray != nullptr && p->dstPtr.ptr != nullptr)) {
    report("%s: a side names both a CUDA array and a pointer", api);
    return set_error(cudaErrorInvalidValue);
  }
  if (p->srcArray != nullptr && p->dstArray != nullptr) {
    report("%s: a copy from one CUDA array to another is not simulated", api);
    return set_error(cudaErrorNotSupported);
  }
  if (x.width == 0 || x.height == 0 || x.depth == 0) return cudaSuccess;
  if (p->srcArray == nullptr && p->dstArray == nullptr) { // pointers: one 2-D copy per slice
    for (size_t z = 0; z < x.depth; ++z) {
      char *dst = (char *)p->dstPtr.ptr +
                  ((p->dstPos.z + z) * p->dstPtr.ysize + p->dstPos.y) * p->dstPtr.pitch +
                  p->dstPos.x;
      const char *src = (const char *)p->srcPtr.ptr +
                        ((p->srcPos.z + z) * p->srcPtr.ysize + p->srcPos.y) * p->srcPtr.pitch +
                        p->srcPos.x;
      cudaError_t e =
          cudaMemcpy2D(dst, p->dstPtr.pitch, src, p->srcPtr.pitch, x.width, x.height, p->kind);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  }
  const bool to_array = p->dstArray != nullptr;
  cudaArray *a = to_array ? p->dstArray : p->srcArray;
  const cudaPos &apos = to_array ? p->dstPos : p->srcPos, &mpos = to_array ? p->srcPos : p->dstPos;
  const cudaPitchedPtr &mem = to_array ? p->srcPtr : p->dstPtr;
  if (!live_array(a)) {
    report("%s: %p is not a live CUDA array", api, (void *)a);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  if (rt::sticky() != cudaSuccess) return rt::sticky();
  const size_t row = a->width * a->texel, bytes = x.width * a->texel;
  if (apos.x + x.width > a->width || apos.y + x.height > a->height || apos.z + x.depth > a->depth) {
    report("%s: %zu x %zu x %zu elements at (%zu, %zu, %zu) do not fit the array's %zu x %zu x "
           "%zu",
           api, x.width, x.height, x.depth, apos.x, apos.y, apos.z, a->width, a->height, a->depth);
    return set_error(cudaErrorInvalidValue);
  }
  // With a CUDA array in the copy, the pointer side's position counts the array's elements too,
  // x included (an H100: dstPos (1, 1, 1) lands 1 float in, and (4, 1, 1) for a 3-float row in
  // a 4-float pitch is cudaErrorInvalidValue); a copy of several slices needs its rows (ysize).
  const size_t offset = mpos.x * a->texel;
  if (mem.ptr != nullptr && x.depth > 1 && mem.ysize == 0) {
    report("%s: the pointer side's ysize is 0: a copy of %zu slices needs the rows per slice", api,
           x.depth);
    return set_error(cudaErrorInvalidPitchValue);
  }
  if (mem.ptr == nullptr || mem.pitch < offset + bytes ||
      (x.depth > 1 && mem.ysize < mpos.y + x.height)) {
    report("%s: the pointer side's pitch (%zu bytes) or rows (%zu) are too small for %zu "
           "elements at x = %zu (with a CUDA array in the copy, positions count its elements, "
           "not bytes)",
           api, mem.pitch, mem.ysize, x.width, mpos.x);
    return set_error(cudaErrorInvalidValue);
  }
  unsigned char *first =
      (unsigned char *)mem.ptr + (mpos.z * mem.ysize + mpos.y) * mem.pitch + offset;
  const size_t span = ((x.depth - 1) * mem.ysize + (x.height - 1)) * mem.pitch + bytes;
  cudaError_t e = check_side(api, first, span, p->kind, to_array);
  if (e != cudaSuccess) return e;
  rt::sync_legacy(); // a blocking copy on the legacy stream: earlier work comes first
  for (size_t z = 0; z < x.depth; ++z)
    for (size_t y = 0; y < x.height; ++y) {
      unsigned char *cell =
          a->data + ((apos.z + z) * a->height + apos.y + y) * row + apos.x * a->texel;
      unsigned char *m = first + (z * mem.ysize + y) * mem.pitch;
      if (to_array)
        std::memcpy(cell, m, bytes);
      else
        std::memcpy(m, cell, bytes);
    }
  return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const cudaResourceDesc *pResDesc) {
  const char *api = "cudaCreateSurfaceObject";
  if (pSurfObject == nullptr || pResDesc == nullptr) return set_error(cudaErrorInvalidValue);
  if (pResDesc->resType != cudaResourceTypeArray) {
    report("%s: a surface is made over a CUDA array (resType cudaResourceTypeArray)", api);
    return set_error(cudaErrorInvalidValue);
  }
  cudaArray *a = pResDesc->res.array.array;
  if (!live_array(a)) {
    report("%s: %p is not a live CUDA array (cudaMallocArray)", api, (void *)a);
    return set_error(cudaErrorInvalidResourceHandle);
  }
  if ((a->flags & cudaArraySurfaceLoadStore) == 0) {
    report("%s: the CUDA array was made without cudaArraySurfaceLoadStore (a flag of "
           "cudaMallocArray)",
           api);
    return set_error(cudaErrorInvalidValue);
  }
  surface *s = new surface;
  s->res = *pResDesc;
  s->array = a;
  size_t slot = take_slot(surfaces, next_surface, s);
  if (slot == 0) {
    delete s;
    report("%s: more than %zu surface objects live at once", api, table_size);
    return set_error(cudaErrorMemoryAllocation);
  }
  *pSurfObject = surface_tag | (cudaSurfaceObject_t)slot;
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  if (surfObject == 0) return cudaSuccess;
  if (surface_at(surfObject) == nullptr) {
    report("cudaDestroySurfaceObject: %#llx is not a live surface object (destroyed twice?)",
           surfObject);
    return set_error(cudaErrorInvalidValue);
  }
  rt::run_queue(); // queued kernels that use it run first
  std::lock_guard<std::mutex> lock(mu);
  delete surfaces[(surfObject & 0xFFFFFFFFull) - 1].exchange(nullptr);
  return cudaSuccess;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject) {
  surface *s = surface_at(surfObject);
  if (pResDesc == nullptr || s == nullptr) return set_error(cudaErrorInvalidValue);
  *pResDesc = s->res;
  return cudaSuccess;
}

} // extern "C"
