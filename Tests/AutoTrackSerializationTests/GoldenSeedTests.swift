import AutoTrackEvents
import AutoTrackSerialization
import Testing

/// The `$AppClick` and `$AppViewScreen` samples printed in the autotrack tutorials
/// (a cell click and a screen view), rebuilt through the API. The tutorials misspell `properties`
/// as `propeerties`; the collector's field is `properties`.
@Suite("Golden: the tutorials' printed events rebuilt, encoded and decoded")
struct GoldenSeedTests {
    /// The table-cell click with content and position.
    static let tableCellClick = Fixtures.event(
        name: .appClick, time: 1_648_887_065_273,
        properties: [
            "$model": "x86_64", "$manufacturer": "Apple", "$element_position": "0:5", "$lib_version": "1.0.0",
            "$os": "iOS", "$element_content": "CELL", "$element_type": "UITableView", "$app_version": "1.0",
            "$screen_name": "ViewController", "$os_version": "15.2", "$lib": "iOS",
        ],
        id: 4_611_686_018_427_387_904)

    static let tableCellClickText = """
        {
          "event" : "$AppClick",
          "time" : 1648887065273,
          "properties" : {
            "$model" : "x86_64",
            "$manufacturer" : "Apple",
            "$element_position" : "0:5",
            "$lib_version" : "1.0.0",
            "$os" : "iOS",
            "$element_content" : "CELL",
            "$element_type" : "UITableView",
            "$app_version" : "1.0",
            "$screen_name" : "ViewController",
            "$os_version" : "15.2",
            "$lib" : "iOS"
          },
          "type" : "track",
          "distinct_id" : "device-1",
          "anonymous_id" : "device-1",
          "lib" : {
            "$lib" : "iOS",
            "$lib_version" : "1.0.0",
            "$lib_method" : "autoTrack",
            "$app_version" : "1.0"
          },
          "_track_id" : 4611686018427387904
        }
        """

    /// The screen view.
    static let screenView = Fixtures.event(
        name: .appViewScreen, time: 1_648_626_597_682,
        properties: [
            "$model": "x86_64", "$manufacturer": "Apple", "$lib_version": "1.0.0", "$os": "iOS",
            "$app_version": "1.0", "$screen_name": "ViewController", "$os_version": "15.2", "$lib": "iOS",
        ],
        id: 2)

    static let screenViewText = """
        {
          "event" : "$AppViewScreen",
          "time" : 1648626597682,
          "properties" : {
            "$model" : "x86_64",
            "$manufacturer" : "Apple",
            "$lib_version" : "1.0.0",
            "$os" : "iOS",
            "$app_version" : "1.0",
            "$screen_name" : "ViewController",
            "$os_version" : "15.2",
            "$lib" : "iOS"
          },
          "type" : "track",
          "distinct_id" : "device-1",
          "anonymous_id" : "device-1",
          "lib" : {
            "$lib" : "iOS",
            "$lib_version" : "1.0.0",
            "$lib_method" : "autoTrack",
            "$app_version" : "1.0"
          },
          "_track_id" : 2
        }
        """

    /// The exact lines the tutorial printed for the table-cell click, typo corrected:
    /// our pretty form must begin with them byte for byte.
    static let printedClickHead = """
        {
          "event" : "$AppClick",
          "time" : 1648887065273,
          "properties" : {
            "$model" : "x86_64",
            "$manufacturer" : "Apple",
            "$element_position" : "0:5",
            "$lib_version" : "1.0.0",
            "$os" : "iOS",
            "$element_content" : "CELL",
            "$element_type" : "UITableView",
            "$app_version" : "1.0",
            "$screen_name" : "ViewController",
            "$os_version" : "15.2",
            "$lib" : "iOS"
          }
        """

    @Test("pretty form matches the golden text", arguments: [
        (tableCellClick, tableCellClickText), (screenView, screenViewText),
    ])
    func prettyGolden(event: Event, golden: String) {
        let pretty = EventJSONEncoder(layout: .pretty).encodeToString(event)
        #expect(pretty == golden)
    }

    @Test("the pretty click begins with the tutorial's printed lines")
    func tutorialLayout() {
        let pretty = EventJSONEncoder(layout: .pretty).encodeToString(Self.tableCellClick)
        #expect(pretty.hasPrefix(Self.printedClickHead))
    }

    @Test("both layouts decode back to the equal event", arguments: [tableCellClick, screenView])
    func decodeBack(event: Event) throws {
        for layout in [EventJSONEncoder.Layout.compact, .pretty] {
            let bytes = EventJSONEncoder(layout: layout).encode(event)
            #expect(try EventJSONDecoder().decodeEvent(from: bytes) == event)
        }
    }

    @Test("the compact form is the pretty form without whitespace")
    func compactGolden() {
        let compact = EventJSONEncoder().encodeToString(Self.screenView)
        #expect(compact == """
            {"event":"$AppViewScreen","time":1648626597682,"properties":{"$model":"x86_64","$manufacturer":"Apple",\
            "$lib_version":"1.0.0","$os":"iOS","$app_version":"1.0","$screen_name":"ViewController","$os_version":"15.2",\
            "$lib":"iOS"},"type":"track","distinct_id":"device-1","anonymous_id":"device-1","lib":{"$lib":"iOS",\
            "$lib_version":"1.0.0","$lib_method":"autoTrack","$app_version":"1.0"},"_track_id":2}
            """)
    }
}
