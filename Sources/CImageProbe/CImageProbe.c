// The C interface's header only: its functions are defined in Swift (Sources/ImageProbeC),
// with the struct layouts taken from this header, so the two cannot disagree.
#include "imageprobe.h"
