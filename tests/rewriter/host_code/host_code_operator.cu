// A file that defines an operator: nothing in it is marked (an operator of its own types is an
// inline call that a marked function would call out of line).
struct pair2 {
  float a, b;
};
inline pair2 operator+(pair2 x, pair2 y) { return {x.a + y.a, x.b + y.b}; }
void kept_plain_loop(float *a, int n) {
  for (int i = 0; i < n; ++i) a[i] = 2.0f * a[i];
}
int main(void) { return 0; }
