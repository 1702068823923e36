__global__ void k(int x) {}
void host() {
  k<<<(1, 1>>>(0);
}
/* an unterminated comment does not hide the error above, and is the compiler's to report
// expect-error: 3:4: '<<<' without a matching '>>>'
