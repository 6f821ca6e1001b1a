/// AutoTrackInterception: `InterceptionPoint` appears in this file's public API.
public import AutoTrackInterception

/// Every conformance scenario, with stable ids.
public enum ScenarioCatalog {
    /// All scenarios: general ones first, then by point.
    public static let all: [Scenario] =
        GeneralScenarios.all + SendActionScenarios.all + GestureAndAlertScenarios.gestures + GestureAndAlertScenarios.alerts
        + DelegateScenarios.all + ScreenViewScenarios.all + SwiftUIScenarios.all + SwiftUIScenarios.variety + SwiftUIScenarios.screens + ApplicationScenarios.all + MatrixScenarios.all + ExplorationRegressions.all

    /// The scenarios that apply to hooks at `point`.
    public static func scenarios(for point: InterceptionPoint) -> [Scenario] {
        all.filter { $0.applies(to: point) }
    }

    /// The scenario with `id`.
    public static func scenario(_ id: String) -> Scenario? { all.first { $0.id == id } }
}
