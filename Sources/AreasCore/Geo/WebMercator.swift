import Glibc

/// Web Mercator (EPSG:3857) as slippy maps use it: at zoom z the world is 256·2^z pixels
/// square, tile (x, y) its 256-pixel square x across and y down from the north-west corner.
public enum WebMercator {
    /// A tile's side in pixels.
    public static let tilePixels = 256

    /// The latitude where the projection's square ends.
    public static let maximumLatitude = 85.051_128_779_806_59

    /// The world-pixel position of `point` at `zoom` (latitudes beyond the square clamped).
    public static func pixel(_ point: GeoPoint, zoom: Int) -> (x: Double, y: Double) {
        let size = Double(tilePixels) * Double(1 << zoom)
        let latitude = min(max(point.latitude, -maximumLatitude), maximumLatitude) * .pi / 180
        let x = (point.longitude + 180) / 360 * size
        let y = (1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * size
        return (x, y)
    }

    /// The geographic box of tile (`x`, `y`) at `zoom`.
    public static func tileBox(zoom: Int, x: Int, y: Int) -> GeoBox {
        let n = Double(1 << zoom)
        func latitude(_ row: Double) -> Double { atan(sinh(.pi * (1 - 2 * row / n))) * 180 / .pi }
        return GeoBox(uncheckedSouth: latitude(Double(y + 1)), west: Double(x) / n * 360 - 180,
                      north: latitude(Double(y)), east: Double(x + 1) / n * 360 - 180)
    }
}
