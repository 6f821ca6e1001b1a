/* Block implementations for native code. GCC's runtime has no imp_implementationWithBlock,
   and hooks written for iOS wrap one method per class with it: a block capturing that
   class's original, installed with method_setImplementation. These definitions,
   exported by the executable, give hook libraries objc4's three functions.

   An IMP made from a block is a 16-byte stub in an executable page: it moves the
   receiver into the second argument register (where a block's first parameter goes),
   loads the block from the data page that follows the code page into the first, and
   jumps to the block's invoke function; the other arguments stay where they are. The
   block is copied and kept until imp_removeBlock. The stubs are x86-64 code: on other
   architectures imp_implementationWithBlock answers NULL. Methods returning structures
   in memory (stret) are not supported: their hidden result pointer comes first, where
   the stub expects the receiver. */
#import <Foundation/Foundation.h>
#include <Block.h>
#include <objc/runtime.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CObjCRuntimeBridge.h"

enum { PAGE = 4096, STUB = 16, STUBS_PER_PAGE = PAGE / STUB };

/* A code page of stubs and the data page after it, one block pointer per stub. */
typedef struct StubPage {
    uint8_t *code;
    void **blocks;
    struct StubPage *next;
} StubPage;

static StubPage *pages = NULL;
static pthread_mutex_t pagesLock = PTHREAD_MUTEX_INITIALIZER;

#if defined(__x86_64__)
/* mov %rdi,%rsi; mov disp32(%rip),%rdi; jmp *16(%rdi); three bytes of padding. */
static void writeStub(uint8_t *stub, size_t index) {
    static const uint8_t code[STUB] = {0x48, 0x89, 0xfe, 0x48, 0x8b, 0x3d, 0, 0, 0, 0, 0xff, 0x67, 0x10, 0x90, 0x90, 0x90};
    memcpy(stub, code, STUB);
    /* The load's displacement counts from the end of the load (byte 10 of the stub). */
    int32_t displacement = (int32_t)(PAGE + index * sizeof(void *)) - (int32_t)(index * STUB + 10);
    memcpy(stub + 6, &displacement, sizeof displacement);
}

static StubPage *newPage(void) {
    uint8_t *memory = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return NULL;
    for (size_t index = 0; index < STUBS_PER_PAGE; index++) writeStub(memory + index * STUB, index);
    if (mprotect(memory, PAGE, PROT_READ | PROT_EXEC) != 0) {
        munmap(memory, 2 * PAGE);
        return NULL;
    }
    StubPage *page = calloc(1, sizeof(StubPage));
    if (page == NULL) {
        munmap(memory, 2 * PAGE);
        return NULL;
    }
    page->code = memory;
    page->blocks = (void **)(memory + PAGE);
    page->next = pages;
    pages = page;
    return page;
}
#else
static StubPage *newPage(void) { return NULL; }
#endif

/* The page and slot of `imp`, or NULL. Called with the lock held. */
static StubPage *pageOf(IMP imp, size_t *index) {
    uintptr_t address = (uintptr_t)imp;
    for (StubPage *page = pages; page != NULL; page = page->next) {
        uintptr_t start = (uintptr_t)page->code;
        if (address >= start && address < start + PAGE && (address - start) % STUB == 0) {
            *index = (address - start) / STUB;
            return page;
        }
    }
    return NULL;
}

IMP imp_implementationWithBlock(id block) {
    if (block == nil) return NULL;
    void *copied = (void *)Block_copy((const void *)block);
    pthread_mutex_lock(&pagesLock);
    IMP imp = NULL;
    for (StubPage *page = pages; page != NULL && imp == NULL; page = page->next) {
        for (size_t index = 0; index < STUBS_PER_PAGE; index++) {
            if (page->blocks[index] == NULL) {
                page->blocks[index] = copied;
                imp = (IMP)(void *)(page->code + index * STUB);
                break;
            }
        }
    }
    if (imp == NULL) {
        StubPage *page = newPage();
        if (page != NULL) {
            page->blocks[0] = copied;
            imp = (IMP)(void *)page->code;
        }
    }
    pthread_mutex_unlock(&pagesLock);
    if (imp == NULL) Block_release(copied);
    return imp;
}

id imp_getBlock(IMP imp) {
    pthread_mutex_lock(&pagesLock);
    size_t index = 0;
    StubPage *page = pageOf(imp, &index);
    id block = page != NULL ? (id)page->blocks[index] : nil;
    pthread_mutex_unlock(&pagesLock);
    return block;
}

BOOL imp_removeBlock(IMP imp) {
    pthread_mutex_lock(&pagesLock);
    size_t index = 0;
    StubPage *page = pageOf(imp, &index);
    void *block = page != NULL ? page->blocks[index] : NULL;
    if (block != NULL) page->blocks[index] = NULL;
    pthread_mutex_unlock(&pagesLock);
    if (block == NULL) return NO;
    Block_release(block);
    return YES;
}
