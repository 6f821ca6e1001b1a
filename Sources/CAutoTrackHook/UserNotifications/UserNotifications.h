/*
 * UserNotifications/UserNotifications.h — the reference host's notification center,
 * declared as the UserNotifications framework declares it, for Objective-C hooks built
 * against the real runtime with `autotrack cflags` (see UIKit/UIKit.h). A response the
 * delegate receives is an object standing for one: pass it on, do not message it.
 *
 * On Apple platforms include the real <UserNotifications/UserNotifications.h> instead.
 */
#ifndef AUTOTRACK_USER_NOTIFICATIONS_SHIM_H
#define AUTOTRACK_USER_NOTIFICATIONS_SHIM_H

#import <Foundation/Foundation.h>

@interface UNUserNotificationCenter : NSObject
+ (UNUserNotificationCenter *)currentNotificationCenter;
- (id)delegate;
- (void)setDelegate:(id)delegate;
@end

@protocol UNUserNotificationCenterDelegate <NSObject>
@optional
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
    didReceiveNotificationResponse:(id)response
             withCompletionHandler:(void (^)(void))completionHandler;
@end

#endif /* AUTOTRACK_USER_NOTIFICATIONS_SHIM_H */
