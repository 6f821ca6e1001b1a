import AutoTrack
import AutoTrackEvents
import AutoTrackReferenceHostIntegration
import AutoTrackReferenceSwiftUI
import AutoTrackReferenceUI
import AutoTrackSampleApp
import Testing

/// The SwiftUI shop through a tracker: exposures of views that ask for them, kept
/// across re-renders, and the element objects SwiftUI's identity keeps.
@Suite("SwiftUI capture")
struct SwiftUICaptureTests {
    @Test("an exposure-watching view is seen once per appearance: re-renders keep it, leaving and coming back is a new appearance")
    func exposureAcrossRerenders() throws {
        let session = try ExposureCaptureTests.Session()
        let app = session.app
        try app.launch()
        let listExposures = session.exposures.count
        try app.host.driver.push(app.shopScreen, on: app.navigation)
        let view = try #require(app.shopScreen.hostingView)
        #expect(session.exposures.count == listExposures + 1)
        let exposure = try #require(session.exposures.last)
        #expect(exposure.properties["$element_type"] == "Image")
        #expect(exposure.properties["$screen_name"] == "ShopView")
        #expect(exposure.properties["campaign"] == "spring")
        for _ in 0..<3 { try app.host.driver.tap("Add to cart", in: view) }
        app.shopState.showsPromotion = true
        view.render()
        try app.host.driver.tap("Follow", in: view)
        #expect(session.exposures.count == listExposures + 1, "re-renders keep the appearance")
        try app.host.driver.tap("Phone", in: view)
        try app.host.driver.pop(app.navigation)
        #expect(session.exposures.count == listExposures + 2, "back from the detail: a new appearance")
        #expect(session.exposures.last?.properties["$element_id"] == exposure.properties["$element_id"])
    }

    @Test("an element drawn again with the same identity is the same object; one whose identity changes is a new one")
    func identityKeepsObjects() throws {
        let app = try SampleApp()
        try app.launch()
        try app.host.driver.push(app.shopScreen, on: app.navigation)
        let view = try #require(app.shopScreen.hostingView)
        func element(_ label: String) -> HostedElement? { view.allElements.first { $0.ownText == label } }
        let button = try #require(element("Add to cart"))
        let caseRow = try #require(element("Case"))
        app.shopState.showsPromotion = true
        app.shopState.products.reverse()
        view.render()
        #expect(element("Add to cart") === button)
        #expect(element("Case") === caseRow, "a ForEach row keeps its object when reordered")
        #expect(element("Case")?.listPosition == caseRow.listPosition)
        try app.host.driver.tap("Follow", in: view)
        #expect(element("Following") != nil, "the label updated in place")
    }
}
