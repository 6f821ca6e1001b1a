/// AutoTrackEvents: `Properties` appears in this file's public API.
public import AutoTrackEvents
/// AutoTrackProperties: `ElementNode` appears in this file's public API.
public import AutoTrackProperties
import AutoTrackLocking

// MARK: Tracking from the app's code

extension Tracker {
    /// Tracks an event from the app's code. Name, identity and properties are validated
    /// here, on the caller's thread, and reported as a typed error; the event is then
    /// built, stored and sent on the worker thread.
    ///
    /// - Throws: ``TrackingError/invalid(_:)`` for a name or property that breaks the
    ///   rules; ``TrackingError/droppedWhileBusy(waited:)`` when the worker made no room
    ///   for it within ``TrackerConfiguration/maximumWaitForRoom``;
    ///   ``TrackingError/shutDown`` after ``shutdown()``. An event the call returns from
    ///   normally is handed over.
    public func track(_ name: String, properties: Properties = [:]) throws(TrackingError) {
        let eventName: EventName
        let checked: Properties
        var report = SanitizationReport()
        do throws(ValidationError) {
            eventName = try EventName(validating: name, rules: configuration.rules)
            checked = try configuration.rules.validated(properties, report: &report)
        } catch {
            throw .invalid(error)
        }
        try submitOrThrow(Submission(now: configuration.clock, context: callContext(),
                                     content: .code(eventName, properties: checked, repairs: report)))
    }

    /// Tracks a `$AppClick` on `element` from the app's code, for a view no hook sees
    /// (a custom-drawn control, a click the app decides on itself). The element's
    /// properties — screen, `$element_type`, `$element_content`, position, path and
    /// id, in the configured path style and type convention, with the element's own
    /// custom id and properties — are read now, on the caller's thread, as a hook
    /// would read them; `properties` are validated here and win over them. The event
    /// says `$lib_method` `code`; an element marked ignored is still tracked, since
    /// the app asked for it by name.
    ///
    /// - Throws: as ``track(_:properties:)`` does.
    public func trackAppClick(element: any ElementNode, properties: Properties = [:]) throws(TrackingError) {
        var report = SanitizationReport()
        let checked: Properties
        do throws(ValidationError) {
            checked = try configuration.rules.validated(properties, report: &report)
        } catch {
            throw .invalid(error)
        }
        var collected = element.owningScreen.map { ScreenProperties.collect(for: $0) } ?? [:]
        collected.merge(ElementProperties(pathStyle: configuration.pathStyle, typeConvention: configuration.elementTypeConvention)
            .collect(for: element))
        collected.merge(ControlAttributes.collect(for: element))
        state.withLock { $0.settings.elementText }.apply(to: &collected, elementMasked: ElementPrivacy.marks(of: element).textMasked)
        try submitOrThrow(Submission(now: configuration.clock, context: callContext(),
                                     content: .manualClick(collected, properties: checked, repairs: report)))
    }
}
