// cooperative_groups/scan.h: the scans live with reduce in this simulator.
#include "reduce.h"
