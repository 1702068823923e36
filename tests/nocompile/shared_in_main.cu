// expect: __shared__ variables belong in device code, not in a host function
int main() {
  __shared__ int counter; // error-here
  counter = 0;
  return counter;
}
