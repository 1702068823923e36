/* Opens device 0 as every lesson does and prints what it found; without a usable device the
 * harness prints its reason and exits 77. */
#include "wb.h"

#include <stdio.h>

int main(void) {
  wb_device device;
  wb_device_open(&device);
  printf("device: %s\n", device.name);
  return 0;
}
