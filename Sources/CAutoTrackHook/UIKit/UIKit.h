/*
 * UIKit/UIKit.h — the reference host's UIKit classes, declared as UIKit declares them,
 * for Objective-C hooks built against the real runtime with `autotrack cflags`.
 *
 * In a process running a host on the real runtime with the model's names (the kit's
 * isolated children, `autotrack conformance --hook-library`), these are real classes:
 * [UIControl class], method_exchangeImplementations on -[UIControl
 * sendAction:to:forEvent:], a subclass of UIViewController all work as on iOS. Only the
 * methods below are Objective-C methods there (the host keeps the rest — titles, frames
 * — on its Swift side); their selectors and type encodings are UIKit's. An index path a
 * delegate receives is an object standing for one: pass it on, do not message it.
 *
 * On Apple platforms include the real <UIKit/UIKit.h> instead; hooks written against
 * these declarations compile there unchanged.
 */
#ifndef AUTOTRACK_UIKIT_SHIM_H
#define AUTOTRACK_UIKIT_SHIM_H

#import <Foundation/Foundation.h>
#include <objc/runtime.h>

/* objc4's associated objects, which GCC's runtime lacks: the process running the host
   (the autotrack tool, the kit's children) defines them. */
#ifndef OBJC_ASSOCIATION_ASSIGN
typedef uintptr_t objc_AssociationPolicy;
enum {
    OBJC_ASSOCIATION_ASSIGN = 0,
    OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1,
    OBJC_ASSOCIATION_COPY_NONATOMIC = 3,
    OBJC_ASSOCIATION_RETAIN = 01401,
    OBJC_ASSOCIATION_COPY = 01403,
};
void objc_setAssociatedObject(id object, const void *key, id value, objc_AssociationPolicy policy);
id objc_getAssociatedObject(id object, const void *key);
void objc_removeAssociatedObjects(id object);
#endif

/* objc4's block implementations, which GCC's runtime lacks: the process running the host
   defines them (x86-64; methods returning structures in memory are not supported). */
IMP imp_implementationWithBlock(id block);
id imp_getBlock(IMP implementation);
BOOL imp_removeBlock(IMP implementation);

/* UIApplication's lifecycle notifications, which the host posts to
   [NSNotificationCenter defaultCenter] with the application as their object. */
static NSString *const UIApplicationDidEnterBackgroundNotification = @"UIApplicationDidEnterBackgroundNotification";
static NSString *const UIApplicationWillEnterForegroundNotification = @"UIApplicationWillEnterForegroundNotification";
static NSString *const UIApplicationDidBecomeActiveNotification = @"UIApplicationDidBecomeActiveNotification";

typedef NSUInteger UIControlEvents;
typedef NSInteger UIAlertActionStyle;
typedef NSInteger UIAlertControllerStyle;
typedef NSInteger UIGestureRecognizerState;

@class UIEvent, UIView, UIViewController, UIAlertAction;

@interface UIResponder : NSObject
@end

@interface UIEvent : NSObject
@end

@interface UIView : UIResponder
- (void)addSubview:(UIView *)view;
- (void)insertSubview:(UIView *)view atIndex:(NSInteger)index;
- (void)removeFromSuperview;
- (void)addGestureRecognizer:(id)gestureRecognizer;
- (void)removeGestureRecognizer:(id)gestureRecognizer;
@end

@interface UIWindow : UIView
@end

@interface UIControl : UIView
- (void)addTarget:(id)target action:(SEL)action forControlEvents:(UIControlEvents)controlEvents;
- (void)removeTarget:(id)target action:(SEL)action forControlEvents:(UIControlEvents)controlEvents;
- (void)sendAction:(SEL)action to:(id)target forEvent:(UIEvent *)event;
- (void)sendActionsForControlEvents:(UIControlEvents)controlEvents;
@end

@interface UIButton : UIControl
@end
@interface UISwitch : UIControl
@end
@interface UISegmentedControl : UIControl
@end
@interface UISlider : UIControl
@end
@interface UIStepper : UIControl
@end
@interface UITextField : UIControl
@end

@interface UIApplication : UIResponder
+ (UIApplication *)sharedApplication;
- (BOOL)sendAction:(SEL)action to:(id)target from:(id)sender forEvent:(UIEvent *)event;
- (void)sendEvent:(UIEvent *)event;
- (id)delegate;
- (void)setDelegate:(id)delegate;
@end

@interface UIScrollView : UIView
@end

@interface UITableView : UIScrollView
- (id)delegate;
- (void)setDelegate:(id)delegate;
- (void)reloadData;
@end

@interface UICollectionView : UIScrollView
- (id)delegate;
- (void)setDelegate:(id)delegate;
- (void)reloadData;
@end

@interface UITableViewCell : UIView
@end
@interface UICollectionViewCell : UIView
@end

@protocol UITableViewDelegate <NSObject>
@optional
- (void)tableView:(UITableView *)tableView didSelectRowAtIndexPath:(id)indexPath;
@end

@protocol UICollectionViewDelegate <NSObject>
@optional
- (void)collectionView:(UICollectionView *)collectionView didSelectItemAtIndexPath:(id)indexPath;
@end

@interface UIGestureRecognizer : NSObject
- (instancetype)initWithTarget:(id)target action:(SEL)action;
- (void)addTarget:(id)target action:(SEL)action;
- (void)removeTarget:(id)target action:(SEL)action;
- (UIGestureRecognizerState)state;
@end

@interface UITapGestureRecognizer : UIGestureRecognizer
@end
@interface UILongPressGestureRecognizer : UIGestureRecognizer
@end
@interface UIPanGestureRecognizer : UIGestureRecognizer
@end

@protocol UIApplicationDelegate <NSObject>
@optional
- (BOOL)application:(UIApplication *)application openURL:(id)url options:(id)options;
@end

@interface UIViewController : UIResponder
- (void)loadView;
- (void)viewDidLoad;
- (void)viewWillAppear:(BOOL)animated;
- (void)viewDidAppear:(BOOL)animated;
- (void)viewWillDisappear:(BOOL)animated;
- (void)viewDidDisappear:(BOOL)animated;
- (void)addChildViewController:(UIViewController *)childController;
- (void)removeFromParentViewController;
@end

@interface UINavigationController : UIViewController
- (void)pushViewController:(UIViewController *)viewController animated:(BOOL)animated;
- (UIViewController *)popViewControllerAnimated:(BOOL)animated;
@end

@interface UITabBarController : UIViewController
- (void)setSelectedIndex:(NSUInteger)selectedIndex;
@end

@interface UIAlertController : UIViewController
- (void)addAction:(UIAlertAction *)action;
@end

@interface UIAlertAction : NSObject
+ (instancetype)actionWithTitle:(NSString *)title style:(UIAlertActionStyle)style handler:(void (^)(UIAlertAction *action))handler;
@end

#endif /* AUTOTRACK_UIKIT_SHIM_H */
