/// AutoTrackInterception: `HookError`, `HookHandle`, `InteractionContext` appear in this file's public API.
public import AutoTrackInterception
import AutoTrackEvents
import AutoTrackObjCBackend
import AutoTrackProperties

/// Taps recognized by gesture recognizers on the real Objective-C runtime: wraps the
/// framework recognizer's dispatch of a recognized tap, so each recognized tap is one
/// click — however many target-actions the recognizer has — recorded before the app's
/// actions run; a recognizer the app gave no target records nothing. Built like
/// ``ObjCSendActionHook``.
///
/// ```swift
/// let handle = try ObjCGestureHook().install(context: context)
/// ```
public struct ObjCGestureHook: Sendable {
    /// The framework's tap recognizer class.
    public let recognizerClassName: String
    /// The private method a recognized tap runs (UIKit's `_updateGestureForActiveEvents`
    /// and its successors play this part).
    public let dispatchSelector: String
    /// Whether a recognizer with no app target records nothing. Turned off only by the
    /// conformance kit's deliberately broken variant.
    package var requiresTarget = true

    /// Creates the hook.
    public init(recognizerClassName: String = "ATTapGestureRecognizer", dispatchSelector: String = "_recognized") {
        self.recognizerClassName = recognizerClassName
        self.dispatchSelector = dispatchSelector
    }

    /// The hook's name, stamped on its interactions.
    public var name: String { requiresTarget ? "objc-gesture" : "objc-gesture-targetless" }

    /// Installs the hook; idempotent; uninstalling restores the method.
    /// - Throws: `HookError` when the recognizer class or its dispatch method is
    ///   missing, or no trampoline is left.
    public func install(context: InteractionContext) throws(HookError) -> HookHandle {
        let runtime = ObjCRuntime.shared
        guard let recognizer = runtime.lookUpClass(named: recognizerClassName) else { throw .classNotFound(className: recognizerClassName) }
        let name = self.name, requiresTarget = self.requiresTarget
        return try TrampolineWrapping.install(name: name, cls: recognizer, selector: dispatchSelector, context: context) { original, interceptor in
            ObjCTrampolines.make { call in
                interceptor.intercept {
                    if requiresTarget, ObjCSampleApp.targetCount(ofRecognizerAt: call.receiver) == 0 { throw CaptureSkip.filtered }
                    let type = runtime.reportedClassName(ofObjectAt: call.receiver)
                    let element = ElementSnapshot(
                        typeName: type, typeHierarchy: [type], role: .view, accessibilityIdentifier: nil,
                        properties: ["$element_type": .string(type)])
                    return Interaction(point: .gesture, element: element, screen: nil, details: InteractionDetails(gestureKind: .tap), capturedBy: name)
                } original: {
                    _ = call.call(original)
                }
            }
        }
    }
}
