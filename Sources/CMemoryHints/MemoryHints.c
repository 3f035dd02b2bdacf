// The hints are inline functions in include/CMemoryHints.h; a C target needs one source file.
#include "CMemoryHints.h"
