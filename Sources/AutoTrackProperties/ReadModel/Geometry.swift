/// A point in a host's coordinate space (points, not pixels).
public struct Point: Hashable, Sendable {
    /// Horizontal position.
    public var x: Double
    /// Vertical position.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle in its parent's coordinate space, as a view's `frame`.
public struct Rect: Hashable, Sendable {
    /// The origin (top-left corner).
    public var origin: Point
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The centre point.
    public var center: Point { Point(x: origin.x + width / 2, y: origin.y + height / 2) }

    /// The area; 0 for an empty or inverted rectangle.
    public var area: Double { width > 0 && height > 0 ? width * height : 0 }

    /// The part both rectangles cover, or `nil` when they do not overlap (touching
    /// edges do not overlap).
    public func intersection(_ other: Rect) -> Rect? {
        let left = max(origin.x, other.origin.x), right = min(origin.x + width, other.origin.x + other.width)
        let top = max(origin.y, other.origin.y), bottom = min(origin.y + height, other.origin.y + other.height)
        guard right > left, bottom > top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: width, height: height)
    }
}

/// An RGBA colour with components in 0…1, as a button's title colour.
public struct Color: Hashable, Sendable {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0…1.
    public var alpha: Double

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}
