/* GNUstep Base includes <objc/blocks_runtime.h>, which Debian's GCC Objective-C
   runtime does not install; the blocks runtime's own header declares the same. */
#include <Block.h>
