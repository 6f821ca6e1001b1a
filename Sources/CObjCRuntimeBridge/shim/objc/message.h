/* GCC's <objc/message.h>, plus objc4's message sends, which GCC's runtime lacks: the
   process running a host on the real runtime defines them (NativeMessageSend.m; x86-64,
   not for methods returning structures in memory). As objc4 declares them, cast to the
   method's type to call: ((id (*)(id, SEL, id))objc_msgSend)(object, selector, argument).
   GCC's struct objc_super names its fields self and super_class (objc4: receiver and
   super_class); initialise it by position. A system header, as objc4's is: the compiler
   knows these functions as builtins with variadic types. */
#pragma GCC system_header
#include_next <objc/message.h>

#ifndef AUTOTRACK_OBJC_MESSAGE_SENDS
#define AUTOTRACK_OBJC_MESSAGE_SENDS
void objc_msgSend(void);
void objc_msgSendSuper(void);
#endif
