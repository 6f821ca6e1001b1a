/* The host's notifications for native code: hooks written for iOS observe the
   application's lifecycle through NSNotificationCenter (a screen view on return to the
   foreground), so a host on the real runtime posts each of its notifications there too,
   under UIKit's names, with the application as the object. */
#import <Foundation/Foundation.h>
#include "CObjCRuntimeBridge.h"

void atr_postNotification(const char *name, ATObjectRef object) {
    NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
    [[NSNotificationCenter defaultCenter] postNotificationName:[NSString stringWithUTF8String:name] object:(id)object];
    [pool release];
}
