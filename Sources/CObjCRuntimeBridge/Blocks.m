/* Blocks between a mirrored runtime and native code: a model block handed to native code
   becomes a real block (heap-allocated, as Block_copy makes them) that calls back into
   the model; a real block handed to the model is called through its invoke function. */
#include <Block.h>
#include <stdint.h>
#include "CObjCRuntimeBridge.h"

typedef uint64_t (^ATFourArgumentBlock)(uint64_t, uint64_t, uint64_t, uint64_t);

ATObjectRef atr_makeBlock(void *context, ATBlockHandler handler) {
    ATFourArgumentBlock block = ^uint64_t(uint64_t first, uint64_t second, uint64_t third, uint64_t fourth) {
        return handler(context, first, second, third, fourth);
    };
    return (ATObjectRef)(void *)Block_copy(block);
}

uint64_t atr_callBlock(ATObjectRef block, int32_t count, const uint64_t *arguments) {
    uint64_t values[4] = {0, 0, 0, 0};
    for (int32_t index = 0; index < count && index < 4; index++) values[index] = arguments[index];
    /* Integer and pointer arguments travel in the same registers whatever the block's
       declared parameters, and a block declared to return nothing leaves a value the
       caller ignores (the System V x86-64 and AArch64 conventions). */
    return ((ATFourArgumentBlock)(void *)block)(values[0], values[1], values[2], values[3]);
}

ATObjectRef atr_copyBlock(ATObjectRef block) { return (ATObjectRef)(void *)Block_copy((void *)block); }

void atr_releaseBlock(ATObjectRef block) { Block_release((void *)block); }
