import AutoTrackEvents

/// A fixed, seeded corpus of events shaped like a real app's autotrack traffic: the
/// preset device block, autotrack element properties with view paths and SHA-256
/// element ids, and the app's own business properties — 20 to 40 per event.
enum RealisticEventCorpus {
    static func make(count: Int, seed: UInt64 = 2024) -> [Event] {
        var random = SplitMix64(seed: seed)
        let screens = ["ViewController", "WMHomePageViewController", "WMMineViewController", "ProductDetailController",
                       "购物车页面", "SettingsViewController"]
        let contents = ["立即购买", "Add to cart", "CELL-¥ 99.00", "Settings", "确定", "Log in", "商品详情-限时抢购"]
        let hex = Array("0123456789abcdef")
        var events: [Event] = []
        events.reserveCapacity(count)
        for index in 0..<count {
            var properties: Properties = [
                "$lib": "Swift", "$lib_version": "0.1.0", "$os": "iOS", "$os_version": "17.4",
                "$model": "iPhone15,3", "$manufacturer": "Apple", "$app_version": "3.12.0",
                "$screen_width": 430, "$screen_height": 932, "$timezone_offset": -480,
                "$wifi": .bool(Bool.random(using: &random)), "$network_type": "WIFI", "$carrier": "中国移动",
            ]
            let screen = screens.randomElement(using: &random)!
            properties["$screen_name"] = .string(screen)
            properties["$title"] = .string(screen == "ViewController" ? "首页" : "Title \(index % 17)")
            let isClick = index % 4 != 0
            if isClick {
                properties["$element_type"] = .string(["UIButton", "UITableView", "UICollectionView", "UISwitch"]
                    .randomElement(using: &random)!)
                properties["$element_content"] = .string(contents.randomElement(using: &random)!)
                properties["$element_position"] = .string("\(Int.random(in: 0..<3, using: &random)):\(Int.random(in: 0..<40, using: &random))")
                properties["$element_path"] = .string(
                    "\(screen)[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,\(index % 9)]/UITableViewCellContentView[0]/UIButton[\(index % 3)]")
                properties["$element_id"] = .string(String((0..<64).map { _ in hex.randomElement(using: &random)! }))
            }
            let extras = Int.random(in: 5...(isClick ? 15 : 25), using: &random)
            for extra in 0..<extras {
                let key = "biz_\(extra)"
                switch extra % 6 {
                case 0: properties[key] = .string("product-\(Int.random(in: 1000...99999, using: &random))")
                case 1: properties[key] = .number((Double.random(in: 0...5000, using: &random) * 100).rounded() / 100)
                case 2: properties[key] = .integer(Int64.random(in: 0...1_000_000, using: &random))
                case 3: properties[key] = .bool(Bool.random(using: &random))
                case 4: properties[key] = .strings(["新品", "sale", "tag \(extra)"])
                default:
                    properties[key] = .date(Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64.random(
                        in: 0...50_000_000_000, using: &random)))
                }
            }
            if index % 50 == 0 { properties["note"] = "quote \" backslash \\ newline \n tab \t done" }
            events.append(Event(
                id: EventID(truncatingBits: random.next()),
                name: isClick ? .appClick : .appViewScreen,
                time: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(index) * 1537),
                identity: index % 3 == 0 ? .loggedIn("user-\(index % 97)", anonymousID: "A1B2C3D4-device")
                    : .anonymous("A1B2C3D4-device"),
                library: LibraryInfo(name: "Swift", version: "0.1.0", method: .autoTrack, appVersion: "3.12.0"),
                properties: properties))
        }
        return events
    }
}
