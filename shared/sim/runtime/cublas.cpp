// cuBLAS for the CPU simulator (cublas_v2.h) on CBLAS (OpenBLAS). Each call checks its
// arguments as cuBLAS does (CUBLAS_STATUS_INVALID_VALUE), checks that its matrices and vectors
// are device memory large enough for what it touches (stricter than a GPU: a "cusim: error:"
// line and CUBLAS_STATUS_EXECUTION_FAILED), and queues the CBLAS call on the handle's stream,
// with its byte ranges for the stream-race check. Scalars in host pointer mode are read at the
// call; a result in host pointer mode is waited for, as cuBLAS does. See docs/architecture.md.
#include "internal.hpp"

#include <cublas_v2.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <set>

#ifndef CUSIM_NO_CBLAS
#include <cblas.h>
#endif

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
};

namespace cusim {
namespace rt {
namespace {

std::mutex handles_mu;
std::set<cublasHandle_t> &handles() {
  static std::set<cublasHandle_t> h;
  return h;
}
bool live(cublasHandle_t h) {
  std::lock_guard<std::mutex> lock(handles_mu);
  return handles().count(h) != 0;
}

bool device_kind(mem_kind k) {
  return k == mem_kind::device || k == mem_kind::pool || k == mem_kind::managed ||
         k == mem_kind::symbol;
}

// The bytes a strided vector or a column-major matrix touches: from p to its last element.
size_t vector_span(int n, int inc, size_t elem) {
  if (n <= 0) return 0;
  return ((size_t)(n - 1) * (size_t)std::abs(inc) + 1) * elem;
}
size_t matrix_span(int rows, int cols, int ld, size_t elem) {
  if (rows <= 0 || cols <= 0) return 0;
  return ((size_t)(cols - 1) * (size_t)ld + (size_t)rows) * elem;
}

// A matrix or vector argument must be device memory holding every byte the call touches.
bool operand_ok(const char *api, const char *what, const void *p, size_t bytes) {
  if (bytes == 0) return true;
  if (p == nullptr) {
    report("%s: %s is a null pointer", api, what);
    return false;
  }
  lookup l = find(p);
  if (!l.live || !device_kind(l.kind)) {
    report("%s: %s (%p) is %s, not device memory: cuBLAS reads and writes device memory (copy "
           "it with cudaMemcpy or cublasSetMatrix first)",
           api, what, p,
           l.freed  ? "freed device memory"
           : l.live ? kind_name(l.kind)
                    : "host memory");
    return false;
  }
  if ((uintptr_t)p + bytes > l.base + l.size) {
    report("%s: %s needs %zu bytes from %p, which runs past the end of its allocation of %zu "
           "bytes (are the sizes or the leading dimension right?)",
           api, what, bytes, p, l.size);
    return false;
  }
  return true;
}

#ifdef CUSIM_NO_CBLAS
cublasStatus_t no_blas(const char *api) {
  report("%s: this simulator was built without OpenBLAS (install libopenblas-dev and configure "
         "again)",
         api);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}
#endif

// A scalar argument: its value now (host pointer mode) or a pointer read when the call runs.
template <class T> struct scalar {
  T value{};
  const T *device = nullptr;
  T get() const { return device ? *device : value; }
};
template <class T>
bool read_scalar(const char *api, const char *what, cublasHandle_t h, const T *p, scalar<T> *s) {
  if (p == nullptr) return false;
  if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST) {
    s->value = *p;
    return true;
  }
  if (!operand_ok(api, what, p, sizeof(T))) return false;
  s->device = p;
  return true;
}

cublasStatus_t submit(const char *api, cublasHandle_t h, std::function<void()> op,
                      const std::vector<mem_access> &accesses) {
  if (sticky() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  if (!valid_stream(h->stream)) {
    report("%s: the handle's stream %p (cublasSetStream) is not a live stream", api,
           (void *)h->stream);
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  enqueue(h->stream, std::move(op), api, accesses);
  return CUBLAS_STATUS_SUCCESS;
}

#ifndef CUSIM_NO_CBLAS
CBLAS_TRANSPOSE cblas_op(cublasOperation_t op) {
  return op == CUBLAS_OP_N ? CblasNoTrans : op == CUBLAS_OP_T ? CblasTrans : CblasConjTrans;
}
#endif

bool valid_op(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

template <class T, class F>
cublasStatus_t gemm(const char *api, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                    int m, int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,
                    const T *beta, T *C, int ldc, F blas) {
  if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(ta) || !valid_op(tb) || m < 0 || n < 0 || k < 0) return CUBLAS_STATUS_INVALID_VALUE;
  int a_rows = ta == CUBLAS_OP_N ? m : k, a_cols = ta == CUBLAS_OP_N ? k : m;
  int b_rows = tb == CUBLAS_OP_N ? k : n, b_cols = tb == CUBLAS_OP_N ? n : k;
  if (lda < (a_rows > 1 ? a_rows : 1) || ldb < (b_rows > 1 ? b_rows : 1) || ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (alpha == nullptr || beta == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  scalar<T> a, b;
  if (!read_scalar(api, "alpha", h, alpha, &a) || !read_scalar(api, "beta", h, beta, &b))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  size_t a_bytes = k ? matrix_span(a_rows, a_cols, lda, sizeof(T)) : 0;
  size_t b_bytes = k ? matrix_span(b_rows, b_cols, ldb, sizeof(T)) : 0;
  size_t c_bytes = matrix_span(m, n, ldc, sizeof(T));
  if (!operand_ok(api, "A", A, a_bytes) || !operand_ok(api, "B", B, b_bytes) ||
      !operand_ok(api, "C", C, c_bytes))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return submit(
      api, h, [=] { blas(ta, tb, m, n, k, a.get(), A, lda, B, ldb, b.get(), C, ldc); },
      {mem_access{A, a_bytes, false}, mem_access{B, b_bytes, false}, mem_access{C, c_bytes, true}});
}

template <class T, class F>
cublasStatus_t gemv(const char *api, cublasHandle_t h, cublasOperation_t trans, int m, int n,
                    const T *alpha, const T *A, int lda, const T *x, int incx, const T *beta, T *y,
                    int incy, F blas) {
  if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(trans) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (alpha == nullptr || beta == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  scalar<T> a, b;
  if (!read_scalar(api, "alpha", h, alpha, &a) || !read_scalar(api, "beta", h, beta, &b))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  int x_n = trans == CUBLAS_OP_N ? n : m, y_n = trans == CUBLAS_OP_N ? m : n;
  size_t a_bytes = matrix_span(m, n, lda, sizeof(T));
  size_t x_bytes = vector_span(x_n, incx, sizeof(T)), y_bytes = vector_span(y_n, incy, sizeof(T));
  if (!operand_ok(api, "A", A, a_bytes) || !operand_ok(api, "x", x, x_bytes) ||
      !operand_ok(api, "y", y, y_bytes))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return submit(
      api, h, [=] { blas(trans, m, n, a.get(), A, lda, x, incx, b.get(), y, incy); },
      {mem_access{A, a_bytes, false}, mem_access{x, x_bytes, false}, mem_access{y, y_bytes, true}});
}

// A level-1 call: x (read, or written when x_written), y (written) if given.
template <class T, class Op>
cublasStatus_t level1(const char *api, cublasHandle_t h, int n, const T *x, int incx,
                      bool x_written, T *y, int incy, Op op) {
  if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  size_t x_bytes = vector_span(n, incx, sizeof(T)), y_bytes = vector_span(n, incy, sizeof(T));
  if (!operand_ok(api, "x", x, x_bytes) || (y && !operand_ok(api, "y", y, y_bytes)))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  std::vector<mem_access> accesses{mem_access{x, x_bytes, x_written}};
  if (y) accesses.push_back(mem_access{y, y_bytes, true});
  return submit(api, h, op, accesses);
}

// A reduction (dot, nrm2, asum): its result goes to host memory (host pointer mode: the call
// waits, as cuBLAS does) or to device memory (device pointer mode: in stream order).
template <class T, class Op>
cublasStatus_t reduction(const char *api, cublasHandle_t h, int n, const T *x, int incx, const T *y,
                         int incy, T *result, Op op) {
  if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (result == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  bool device_result = h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  if (device_result && !operand_ok(api, "result", result, sizeof(T)))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  size_t x_bytes = vector_span(n, incx, sizeof(T)), y_bytes = vector_span(n, incy, sizeof(T));
  if (!operand_ok(api, "x", x, x_bytes) || (y && !operand_ok(api, "y", y, y_bytes)))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  std::vector<mem_access> accesses{mem_access{x, x_bytes, false}};
  if (y) accesses.push_back(mem_access{y, y_bytes, false});
  if (device_result) accesses.push_back(mem_access{result, sizeof(T), true});
  cublasStatus_t s = submit(
      api, h, [=] { *result = n > 0 ? op() : T(0); }, accesses);
  if (s == CUBLAS_STATUS_SUCCESS && !device_result) {
    sync_stream(h->stream);
    if (sticky() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  return s;
}

cublasStatus_t copy_2d(const char *api, int rows, int cols, int elem, const void *A, int lda,
                       void *B, int ldb, bool to_device) {
  if (rows < 0 || cols < 0 || elem <= 0 || lda <= 0 || ldb <= 0 || lda < rows || ldb < rows)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
  size_t a_bytes = matrix_span(rows, cols, lda, (size_t)elem);
  size_t b_bytes = matrix_span(rows, cols, ldb, (size_t)elem);
  if (to_device ? !operand_ok(api, "the device matrix", B, b_bytes)
                : !operand_ok(api, "the device matrix", A, a_bytes))
    return CUBLAS_STATUS_MAPPING_ERROR;
  sync_legacy();
  if (sticky() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
  for (int c = 0; c < cols; ++c)
    std::memcpy(static_cast<char *>(B) + (size_t)c * ldb * elem,
                static_cast<const char *>(A) + (size_t)c * lda * elem, (size_t)rows * elem);
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace
} // namespace rt
} // namespace cusim

using namespace cusim::rt;

extern "C" {

#if defined(CUSIM_TSAN) && !defined(CUSIM_NO_CBLAS)
// Under ThreadSanitizer (the sim-race preset, the workbook's --race) OpenBLAS computes on the
// calling thread only: its worker threads wait for work and hand results back through flags
// that ThreadSanitizer cannot see (OpenBLAS is not instrumented), so a copy of a product that one
// of them wrote was reported as a data race in the runtime's own cudaMemcpy (lesson 17, n = 100).
void openblas_set_num_threads(int num_threads); // OpenBLAS's (cblas.h), declared here too
#endif

cublasStatus_t cublasCreate(cublasHandle_t *handle) {
  creation_site here(__builtin_return_address(0));
#if defined(CUSIM_TSAN) && !defined(CUSIM_NO_CBLAS)
  static std::once_flag one_thread;
  std::call_once(one_thread, [] { openblas_set_num_threads(1); });
#endif
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  cublasHandle_t h = new cublasContext;
  std::lock_guard<std::mutex> lock(handles_mu);
  handles().insert(h);
  resource_created(resource::cublas_handle, h);
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  {
    std::lock_guard<std::mutex> lock(handles_mu);
    if (!handles().erase(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  }
  resource_released(handle);
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion(cublasHandle_t handle, int *version) {
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (version == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t streamId) {
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId) {
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (streamId == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode) {
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "success";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "the library was not initialized";
  case CUBLAS_STATUS_ALLOC_FAILED:
    return "the resource allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "an invalid numeric value was used as an argument";
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return "an absent device architectural feature is required";
  case CUBLAS_STATUS_MAPPING_ERROR:
    return "an access to GPU memory space failed";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "the GPU program failed to execute";
  case CUBLAS_STATUS_INTERNAL_ERROR:
    return "an internal operation failed";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "the functionality requested is not supported";
  case CUBLAS_STATUS_LICENSE_ERROR:
    return "error detected trying to check the license";
  }
  return "unknown cuBLAS status";
}

cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr,
                               int incy) {
  if (incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  // A vector with increments is a 1 x n matrix with leading dimensions incx and incy.
  return copy_2d("cublasSetVector", 1, n, elemSize, x, incx, devicePtr, incy, true);
}

cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  if (incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  return copy_2d("cublasGetVector", 1, n, elemSize, x, incx, y, incy, false);
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb) {
  return copy_2d("cublasSetMatrix", rows, cols, elemSize, A, lda, B, ldb, true);
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb) {
  return copy_2d("cublasGetMatrix", rows, cols, elemSize, A, lda, B, ldb, false);
}

#ifdef CUSIM_NO_CBLAS

#define CUSIM_NO_BLAS(name, ...)                                                                   \
  cublasStatus_t name(__VA_ARGS__) {                                                               \
    return no_blas(#name);                                                                         \
  }
CUSIM_NO_BLAS(cublasSaxpy, cublasHandle_t, int, const float *, const float *, int, float *, int)
CUSIM_NO_BLAS(cublasDaxpy, cublasHandle_t, int, const double *, const double *, int, double *, int)
CUSIM_NO_BLAS(cublasSscal, cublasHandle_t, int, const float *, float *, int)
CUSIM_NO_BLAS(cublasDscal, cublasHandle_t, int, const double *, double *, int)
CUSIM_NO_BLAS(cublasScopy, cublasHandle_t, int, const float *, int, float *, int)
CUSIM_NO_BLAS(cublasDcopy, cublasHandle_t, int, const double *, int, double *, int)
CUSIM_NO_BLAS(cublasSdot, cublasHandle_t, int, const float *, int, const float *, int, float *)
CUSIM_NO_BLAS(cublasDdot, cublasHandle_t, int, const double *, int, const double *, int, double *)
CUSIM_NO_BLAS(cublasSnrm2, cublasHandle_t, int, const float *, int, float *)
CUSIM_NO_BLAS(cublasDnrm2, cublasHandle_t, int, const double *, int, double *)
CUSIM_NO_BLAS(cublasSasum, cublasHandle_t, int, const float *, int, float *)
CUSIM_NO_BLAS(cublasDasum, cublasHandle_t, int, const double *, int, double *)
CUSIM_NO_BLAS(cublasSgemv, cublasHandle_t, cublasOperation_t, int, int, const float *,
              const float *, int, const float *, int, const float *, float *, int)
CUSIM_NO_BLAS(cublasDgemv, cublasHandle_t, cublasOperation_t, int, int, const double *,
              const double *, int, const double *, int, const double *, double *, int)
CUSIM_NO_BLAS(cublasSgemm, cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
              const float *, const float *, int, const float *, int, const float *, float *, int)
CUSIM_NO_BLAS(cublasDgemm, cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
              const double *, const double *, int, const double *, int, const double *, double *,
              int)

#else

cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float *alpha, const float *x,
                           int incx, float *y, int incy) {
  scalar<float> a;
  if (alpha == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  if (live(handle) && !read_scalar("cublasSaxpy", "alpha", handle, alpha, &a))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return level1("cublasSaxpy", handle, n, x, incx, false, y, incy,
                [=] { cblas_saxpy(n, a.get(), x, incx, y, incy); });
}

cublasStatus_t cublasDaxpy(cublasHandle_t handle, int n, const double *alpha, const double *x,
                           int incx, double *y, int incy) {
  scalar<double> a;
  if (alpha == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  if (live(handle) && !read_scalar("cublasDaxpy", "alpha", handle, alpha, &a))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return level1("cublasDaxpy", handle, n, x, incx, false, y, incy,
                [=] { cblas_daxpy(n, a.get(), x, incx, y, incy); });
}

cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha, float *x, int incx) {
  scalar<float> a;
  if (alpha == nullptr || incx <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (live(handle) && !read_scalar("cublasSscal", "alpha", handle, alpha, &a))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return level1<float>("cublasSscal", handle, n, x, incx, true, nullptr, 1,
                       [=] { cblas_sscal(n, a.get(), x, incx); });
}

cublasStatus_t cublasDscal(cublasHandle_t handle, int n, const double *alpha, double *x, int incx) {
  scalar<double> a;
  if (alpha == nullptr || incx <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (live(handle) && !read_scalar("cublasDscal", "alpha", handle, alpha, &a))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return level1<double>("cublasDscal", handle, n, x, incx, true, nullptr, 1,
                        [=] { cblas_dscal(n, a.get(), x, incx); });
}

cublasStatus_t cublasScopy(cublasHandle_t handle, int n, const float *x, int incx, float *y,
                           int incy) {
  return level1("cublasScopy", handle, n, x, incx, false, y, incy,
                [=] { cblas_scopy(n, x, incx, y, incy); });
}

cublasStatus_t cublasDcopy(cublasHandle_t handle, int n, const double *x, int incx, double *y,
                           int incy) {
  return level1("cublasDcopy", handle, n, x, incx, false, y, incy,
                [=] { cblas_dcopy(n, x, incx, y, incy); });
}

cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float *x, int incx, const float *y,
                          int incy, float *result) {
  return reduction("cublasSdot", handle, n, x, incx, y, incy, result,
                   [=] { return cblas_sdot(n, x, incx, y, incy); });
}

cublasStatus_t cublasDdot(cublasHandle_t handle, int n, const double *x, int incx, const double *y,
                          int incy, double *result) {
  return reduction("cublasDdot", handle, n, x, incx, y, incy, result,
                   [=] { return cblas_ddot(n, x, incx, y, incy); });
}

cublasStatus_t cublasSnrm2(cublasHandle_t handle, int n, const float *x, int incx, float *result) {
  return reduction<float>("cublasSnrm2", handle, n, x, incx, nullptr, 1, result,
                          [=] { return incx > 0 ? cblas_snrm2(n, x, incx) : 0.0f; });
}

cublasStatus_t cublasDnrm2(cublasHandle_t handle, int n, const double *x, int incx,
                           double *result) {
  return reduction<double>("cublasDnrm2", handle, n, x, incx, nullptr, 1, result,
                           [=] { return incx > 0 ? cblas_dnrm2(n, x, incx) : 0.0; });
}

cublasStatus_t cublasSasum(cublasHandle_t handle, int n, const float *x, int incx, float *result) {
  return reduction<float>("cublasSasum", handle, n, x, incx, nullptr, 1, result,
                          [=] { return incx > 0 ? cblas_sasum(n, x, incx) : 0.0f; });
}

cublasStatus_t cublasDasum(cublasHandle_t handle, int n, const double *x, int incx,
                           double *result) {
  return reduction<double>("cublasDasum", handle, n, x, incx, nullptr, 1, result,
                           [=] { return incx > 0 ? cblas_dasum(n, x, incx) : 0.0; });
}

cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                           const float *alpha, const float *A, int lda, const float *x, int incx,
                           const float *beta, float *y, int incy) {
  return gemv("cublasSgemv", handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy,
              [](cublasOperation_t t, int m_, int n_, float a, const float *A_, int lda_,
                 const float *x_, int incx_, float b, float *y_, int incy_) {
                cblas_sgemv(CblasColMajor, cblas_op(t), m_, n_, a, A_, lda_, x_, incx_, b, y_,
                            incy_);
              });
}

cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                           const double *alpha, const double *A, int lda, const double *x, int incx,
                           const double *beta, double *y, int incy) {
  return gemv("cublasDgemv", handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy,
              [](cublasOperation_t t, int m_, int n_, double a, const double *A_, int lda_,
                 const double *x_, int incx_, double b, double *y_, int incy_) {
                cblas_dgemv(CblasColMajor, cblas_op(t), m_, n_, a, A_, lda_, x_, incx_, b, y_,
                            incy_);
              });
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, int k, const float *alpha,
                           const float *A, int lda, const float *B, int ldb, const float *beta,
                           float *C, int ldc) {
  return gemm("cublasSgemm", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
              [](cublasOperation_t ta, cublasOperation_t tb, int m_, int n_, int k_, float a,
                 const float *A_, int lda_, const float *B_, int ldb_, float b, float *C_,
                 int ldc_) {
                cblas_sgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m_, n_, k_, a, A_, lda_, B_,
                            ldb_, b, C_, ldc_);
              });
}

cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, int k, const double *alpha,
                           const double *A, int lda, const double *B, int ldb, const double *beta,
                           double *C, int ldc) {
  return gemm("cublasDgemm", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
              [](cublasOperation_t ta, cublasOperation_t tb, int m_, int n_, int k_, double a,
                 const double *A_, int lda_, const double *B_, int ldb_, double b, double *C_,
                 int ldc_) {
                cblas_dgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m_, n_, k_, a, A_, lda_, B_,
                            ldb_, b, C_, ldc_);
              });
}

#endif

} // extern "C"
