// A launch in a macro body cannot be rewritten line for line; other macros are left alone.
#define LAUNCH(kernel, n) kernel<<<(n + 255) / 256, 256>>>(n)
#define SHIFT(x) ((x) << 2)
#define LESS(a, b) ((a) < (b))
#define __shared__
#define TILE __shared__ float tile[32]
#define STRING "k<<<1, 1>>>()"
#define TWO_LINES \
  k<<<1, 1>>>()
void host(Widget w) {
  w.kernel<<<1, 1>>>();
  w->kernel<<<1, 1>>>();
}
// expect-error: 2:33: a kernel launch inside a #define is not supported by the simulator; launch the kernel outside the macro
// expect-error: 9:4: a kernel launch inside a #define is not supported by the simulator; launch the kernel outside the macro
// expect-error: 11:4: a kernel must be a function, not a member reached with '.' or '->'
// expect-error: 12:4: a kernel must be a function, not a member reached with '.' or '->'
