extension RegionMap {
    /// Lays the map out: per level, its codes, names and polygons; then its grid.
    package func write(to writer: inout some FlatLayoutWriter) {
        for layer in layers {
            writer.column(layer.codes)
            writer.column(layer.nameBytes)
            writer.column(layer.nameStarts)
            layer.shapes.write(to: &writer)
        }
        grid.write(to: &writer)
    }

    /// Reads a map laid out by `write(to:)`, in place, checking each level's codes (ascending,
    /// of the level's digits), names (UTF-8, one per code) and polygons (each owned by a row).
    package init(reading reader: inout some FlatLayoutReader) throws(FlatLayoutError) {
        var layers: [Layer] = []
        for level in Level.allCases {
            let codes = try reader.column(of: UInt32.self)
            let least = RegionName.powerOfTen(level.codeDigits - 1), most = RegionName.powerOfTen(level.codeDigits)
            for (i, code) in codes.enumerated() where !(least..<most).contains(code) || (i > 0 && codes[i - 1] >= code) {
                throw FlatLayoutError("\(level.name) \(i)'s code \(code) is not a \(level.codeDigits)-digit code in order")
            }
            let nameBytes = try reader.column(of: UInt8.self)
            let nameStarts = try reader.column("the \(level.name) names", of: UInt32.self, count: codes.count + 1)
            guard nameStarts.first == 0, Int(nameStarts[codes.count]) == nameBytes.count,
                  zip(nameStarts, nameStarts.dropFirst()).allSatisfy({ $0 <= $1 }),
                  (0..<codes.count).allSatisfy({ String(validating: nameBytes[Int(nameStarts[$0])..<Int(nameStarts[$0 + 1])], as: UTF8.self) != nil })
            else { throw FlatLayoutError("the \(level.name) names do not split into one UTF-8 name per code") }
            let shapes = try ShapeIndex(reading: &reader, maximumWidth: 0, ownersRepeat: true) { $0 < codes.count }
            layers.append(Layer(codes: codes, nameBytes: nameBytes, nameStarts: nameStarts, shapes: shapes, level: level))
        }
        self.init(layers: layers, grid: try RegionGrid(reading: &reader, layers: layers))
    }
}
