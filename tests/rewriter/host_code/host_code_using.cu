// A file that says `using namespace`: nothing in it is marked (vector<float> reads as a
// comparison to the rewriter).
#include <vector>
using namespace std;
void kept_plain_loop(float *a, int n) {
  for (int i = 0; i < n; ++i) a[i] = 2.0f * a[i];
}
int main(void) { return 0; }
