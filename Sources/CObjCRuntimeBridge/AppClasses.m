/* An app's own classes, compiled from Objective-C as an app's would be: a table-view
   delegate, a delegate subclass whose override calls super, a table that asks its
   delegate, and a view controller. Every call of theirs is written to the app log, so
   a test can tell how many times an original ran. */
#import <Foundation/Foundation.h>
#include <objc/message.h>
#include <objc/runtime.h>
#include <string.h>
#include <Block.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

enum { APP_LOG_LIMIT = 256 };
static char appLog[APP_LOG_LIMIT][96];
static int appLogCount = 0;
static NSLock *appLogLock;

static void appLogWrite(const char *entry) {
    if (appLogLock == nil) appLogLock = [NSLock new];
    [appLogLock lock];
    if (appLogCount < APP_LOG_LIMIT) {
        strncpy(appLog[appLogCount], entry, sizeof(appLog[0]) - 1);
        appLog[appLogCount][sizeof(appLog[0]) - 1] = 0;
        appLogCount++;
    }
    [appLogLock unlock];
}

void atr_appLogNote(const char *entry) { appLogWrite(entry); }

/* Runs `body` in an autorelease pool, catching what it raises: the shape of every call
   the bridge makes into the app. */
static ATSendResult catching(void (^body)(void)) {
    ATSendResult result = {0, false, {0}};
    @autoreleasepool {
        @try {
            body();
        } @catch (NSException *exception) {
            result.raised = true;
            const char *name = [[exception name] UTF8String];
            strncpy(result.exceptionName, name ? name : "unnamed", sizeof(result.exceptionName) - 1);
        }
    }
    return result;
}

void atr_appLogClear(void) {
    if (appLogLock == nil) appLogLock = [NSLock new];
    [appLogLock lock];
    appLogCount = 0;
    [appLogLock unlock];
}

int atr_appLogCount(void) { return appLogCount; }

const char *atr_appLogEntry(int index) { return index >= 0 && index < appLogCount ? appLog[index] : ""; }

@protocol ATAppTableDelegate
- (void)tableView:(id)tableView didSelectRowAtIndexPath:(id)indexPath;
@end

/* The table: asks its delegate, which it holds weakly (unretained), as UIKit does. */
@interface ATAppTable : NSObject {
  @public
    id delegate;
}
- (void)setDelegate:(id)newDelegate;
- (id)delegate;
- (void)userSelectRow:(long)row;
@end

@implementation ATAppTable
- (void)setDelegate:(id)newDelegate { delegate = newDelegate; }
- (id)delegate { return delegate; }
- (void)userSelectRow:(long)row {
    SEL selection = @selector(tableView:didSelectRowAtIndexPath:);
    if ([delegate respondsToSelector:selection]) {
        [(id<ATAppTableDelegate>)delegate tableView:self didSelectRowAtIndexPath:[NSNumber numberWithLong:row]];
    }
}
@end

@interface ATAppDelegate : NSObject {
    NSString *title;
}
- (void)tableView:(id)tableView didSelectRowAtIndexPath:(id)indexPath;
- (NSString *)title;
- (void)setTitle:(NSString *)newTitle;
@end

@implementation ATAppDelegate
- (void)tableView:(id)tableView didSelectRowAtIndexPath:(id)indexPath {
    char entry[96];
    snprintf(entry, sizeof(entry), "-[ATAppDelegate didSelect] %ld on %s", [indexPath longValue], class_getName([self class]));
    appLogWrite(entry);
}
- (NSString *)title { return title; }
- (void)setTitle:(NSString *)newTitle {
    [newTitle retain];
    [title release];
    title = newTitle;
    appLogWrite("-[ATAppDelegate setTitle:]");
}
- (void)dealloc {
    [title release];
    [super dealloc];
}
@end

@interface ATAppDelegateSubclass : ATAppDelegate
@end

@implementation ATAppDelegateSubclass
- (void)tableView:(id)tableView didSelectRowAtIndexPath:(id)indexPath {
    appLogWrite("-[ATAppDelegateSubclass didSelect]");
    [super tableView:tableView didSelectRowAtIndexPath:indexPath];
}
@end

/* The framework's view controller (UIViewController's part in this app): a view loads
   once, then every presentation sends viewDidAppear:. */
@interface ATViewController : NSObject {
  @public
    BOOL loaded;
}
- (void)viewDidLoad;
- (void)viewDidAppear:(BOOL)animated;
@end

@implementation ATViewController
- (void)viewDidLoad { appLogWrite("-[ATViewController viewDidLoad]"); }
- (void)viewDidAppear:(BOOL)animated { appLogWrite("-[ATViewController viewDidAppear:]"); }
@end

/* The app's controllers: one whose override calls super, one whose override does not. */
@interface ATAppViewController : ATViewController
@end

@implementation ATAppViewController
- (void)viewDidAppear:(BOOL)animated {
    appLogWrite("-[ATAppViewController viewDidAppear:]");
    [super viewDidAppear:animated];
}
@end

@interface ATAppNoSuperViewController : ATViewController
@end

@implementation ATAppNoSuperViewController
- (void)viewDidAppear:(BOOL)animated { appLogWrite("-[ATAppNoSuperViewController viewDidAppear:]"); }
@end

static void lateAppear(id self, SEL _cmd, BOOL animated) {
    char entry[96];
    snprintf(entry, sizeof(entry), "-[%s viewDidAppear:]", class_getName(object_getClass(self)));
    appLogWrite(entry);
}

ATImplementation atr_appOverrideWithoutSuperImplementation(void) { return (ATImplementation)lateAppear; }

ATObjectRef atr_appNewController(const char *className) {
    Class cls = objc_lookUpClass(className);
    return cls ? (ATObjectRef)(void *)[cls new] : NULL;
}

ATSendResult atr_appPresent(ATObjectRef controller) {
    ATSendResult result = catching(^{
        ATViewController *shown = (ATViewController *)(void *)controller;
        if (!shown->loaded) {
            shown->loaded = YES;
            [shown viewDidLoad];
        }
        [shown viewDidAppear:YES];
    });
    return result;
}

int atr_classList(ATClassRef _Nonnull *buffer, int capacity) {
    return objc_getClassList((Class *)(void *)buffer, capacity);
}

/* An observer for key-value observing: counts the changes it is told about. */
@interface ATAppObserver : NSObject
@end

static int observedChanges = 0;

@implementation ATAppObserver
- (void)observeValueForKeyPath:(NSString *)keyPath ofObject:(id)object change:(NSDictionary *)change context:(void *)context {
    observedChanges++;
}
@end

int atr_appObservedChanges(void) { return observedChanges; }

ATObjectRef atr_appNewObserver(void) { return (ATObjectRef)(void *)[ATAppObserver new]; }

ATObjectRef atr_appNewTable(void) { return (ATObjectRef)(void *)[ATAppTable new]; }

void atr_appTableSetDelegate(ATObjectRef table, ATObjectRef delegate) {
    [(ATAppTable *)(void *)table setDelegate:(id)(void *)delegate];
}

ATSendResult atr_appUserSelectRow(ATObjectRef table, long row) {
    ATSendResult result = catching(^{
        [(ATAppTable *)(void *)table userSelectRow:row];
    });
    return result;
}

ATSendResult atr_appSetTitle(ATObjectRef object, const char *title) {
    ATSendResult result = catching(^{
        [(ATAppDelegate *)(void *)object setTitle:[NSString stringWithUTF8String:title]];
    });
    return result;
}

/* The framework's control (UIControl's part): target-action pairs; a touch dispatches
   each pair through sendAction:to:forEvent: with the touch's event. */
@interface ATControl : NSObject {
  @public
    id targets[8];
    SEL actions[8];
    int pairs;
    char title[32];
}
- (void)sendAction:(SEL)action to:(id)target forEvent:(id)event;
- (void)_touchUpInside:(id)event;
@end

@implementation ATControl
- (void)sendAction:(SEL)action to:(id)target forEvent:(id)event {
    IMP imp = atr_lookUp(target, action);
    ((void (*)(id, SEL, id))imp)(target, action, self);
}
- (void)_touchUpInside:(id)event {
    for (int index = 0; index < pairs; index++) [self sendAction:actions[index] to:targets[index] forEvent:event];
}
@end

/* The app's target. */
@interface ATAppActions : NSObject
- (void)buyTapped:(id)sender;
- (void)logTapped:(id)sender;
- (void)bannerTapped:(id)recognizer;
@end

@implementation ATAppActions
- (void)buyTapped:(id)sender { appLogWrite("-[ATAppActions buyTapped:]"); }
- (void)logTapped:(id)sender { appLogWrite("-[ATAppActions logTapped:]"); }
- (void)bannerTapped:(id)recognizer { appLogWrite("-[ATAppActions bannerTapped:]"); }
@end

ATObjectRef atr_appNewControl(const char *title) {
    ATControl *control = [ATControl new];
    strncpy(control->title, title, sizeof(control->title) - 1);
    return (ATObjectRef)(void *)control;
}

const char *atr_appControlTitle(ATObjectRef control) { return ((ATControl *)(void *)control)->title; }

ATObjectRef atr_appNewActions(void) { return (ATObjectRef)(void *)[ATAppActions new]; }

void atr_appControlAddTarget(ATObjectRef control, ATObjectRef target, const char *action) {
    ATControl *shown = (ATControl *)(void *)control;
    if (shown->pairs >= 8) return;
    shown->targets[shown->pairs] = (id)(void *)target;
    shown->actions[shown->pairs] = sel_registerName(action);
    shown->pairs++;
}

ATSendResult atr_appTouch(ATObjectRef control) {
    id event = [NSObject new];
    ATSendResult result = catching(^{
        [(ATControl *)(void *)control _touchUpInside:event];
    });
    [event release];
    return result;
}

ATSendResult atr_appSendAction(ATObjectRef control, ATObjectRef target, const char *action) {
    ATSendResult result = catching(^{
        [(ATControl *)(void *)control sendAction:sel_registerName(action) to:(id)(void *)target forEvent:nil];
    });
    return result;
}

/* The framework's tap recognizer (UITapGestureRecognizer's part): target-action pairs;
   a recognized tap sends each action with the recognizer. */
@interface ATTapGestureRecognizer : NSObject {
  @public
    id targets[8];
    SEL actions[8];
    int pairs;
}
- (void)addTarget:(id)target action:(SEL)action;
- (void)_recognized;
@end

@implementation ATTapGestureRecognizer
- (void)addTarget:(id)target action:(SEL)action {
    if (pairs >= 8) return;
    targets[pairs] = target;
    actions[pairs] = action;
    pairs++;
}
- (void)_recognized {
    for (int index = 0; index < pairs; index++) {
        IMP imp = atr_lookUp(targets[index], actions[index]);
        ((void (*)(id, SEL, id))imp)(targets[index], actions[index], self);
    }
}
@end

ATObjectRef atr_appNewTapRecognizer(void) { return (ATObjectRef)(void *)[ATTapGestureRecognizer new]; }

ATSendResult atr_appRecognizerAddTarget(ATObjectRef recognizer, ATObjectRef target, const char *action) {
    ATSendResult result = catching(^{
        [(ATTapGestureRecognizer *)(void *)recognizer addTarget:(id)(void *)target action:sel_registerName(action)];
    });
    return result;
}

ATSendResult atr_appRecognizeTap(ATObjectRef recognizer) {
    ATSendResult result = catching(^{
        [(ATTapGestureRecognizer *)(void *)recognizer _recognized];
    });
    return result;
}

int atr_appRecognizerTargetCount(ATObjectRef recognizer) { return ((ATTapGestureRecognizer *)(void *)recognizer)->pairs; }

/* The framework's alert action (UIAlertAction's part): made with a handler block, which
   runs when the user taps the action. */
typedef void (^ATAlertHandler)(id action);

@interface ATAlertAction : NSObject {
  @public
    char title[32];
    ATAlertHandler handler;
}
+ (id)actionWithTitle:(const char *)title handler:(ATAlertHandler)handler;
- (void)_tapped;
@end

@implementation ATAlertAction
+ (id)actionWithTitle:(const char *)title handler:(ATAlertHandler)handler {
    ATAlertAction *action = [[self new] autorelease];
    strncpy(action->title, title, sizeof(action->title) - 1);
    action->handler = handler ? Block_copy(handler) : NULL;
    return action;
}
- (void)_tapped {
    if (handler) handler(self);
}
- (void)dealloc {
    if (handler) Block_release(handler);
    [super dealloc];
}
@end

ATObjectRef atr_appMakeAlertAction(const char *title, bool withHandler) {
    char entry[64];
    snprintf(entry, sizeof(entry), "handled %s", title);
    char *copy = strdup(entry);
    ATAlertHandler handler = withHandler ? ^(id action) { appLogWrite(copy); } : NULL;
    return (ATObjectRef)(void *)[ATAlertAction actionWithTitle:title handler:handler];
}

ATSendResult atr_appTapAlertAction(ATObjectRef action) {
    ATSendResult result = catching(^{
        [(ATAlertAction *)(void *)action _tapped];
    });
    return result;
}

const char *atr_appAlertActionTitle(ATObjectRef action) { return ((ATAlertAction *)(void *)action)->title; }
