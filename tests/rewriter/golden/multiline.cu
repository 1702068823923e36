// Launches and declarations spanning lines keep every line where it was.
__global__ void add(float *out, const float *a, int n) {}

void host(float *out, float *a, int n) {
  add<<<(n + 255) / 256,
        256>>>(out,
               a,
               n);
  add // the kernel
      <<<1, /* blocks */
         1 /* threads */>>>
      (out, 0, n);
  add<<<1, 1>>>(
      out,
      0,
      n
  );
  add<<<1, 1>>>(out, a, // a trailing comment
                n);
  int after = 1; // line 20 in the input is line 20 in the output
}
