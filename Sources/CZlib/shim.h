#ifndef AUTOTRACK_CZLIB_SHIM_H
#define AUTOTRACK_CZLIB_SHIM_H
#include <zlib.h>
#endif
