import AreasCore
import AreasProtocol
import AreasSystem

extension Request.Along: CommandQuestion {
    static let presentation = ResponseFormatter.listPresentation
    static func show(_ answer: ShownAnswer) -> ResponseFormatter.Output { ResponseFormatter.areaList(answer) }

    static func operandValues(_ operands: Operands) throws(UsageError) -> [(RequestField, JSONValue)] {
        guard !operands.texts.isEmpty else { throw .wrongArguments("along takes LAT,LON points: along 37.55,126.97 37.56,126.98") }
        var path: [JSONValue] = []
        for operand in operands.texts {
            guard let (lat, lon) = RequestValue.decimalPair(operand), lat.isFinite, lon.isFinite else {
                throw .invalidValue("LAT,LON", operand)
            }
            if !(-90...90).contains(lat), (try? GeoPoint(latitude: lon, longitude: lat)).map(GeoBox.korea.contains) == true {
                throw .wrongArguments("\(operand): latitude and longitude look swapped (try \(ControlCommand.text(lon)),\(ControlCommand.text(lat)))")
            }
            guard (try? GeoPoint(latitude: lat, longitude: lon)) != nil else {
                throw .wrongArguments("\(operand) is not a position: latitude -90 to 90, longitude -180 to 180")
            }
            path.append(.array([.number(lat), .number(lon)]))
        }
        return [(.path, .array(path))]
    }

    /// A corridor of 50 m unless `--meters` says.
    static func completing(_ values: inout [(RequestField, JSONValue)]) throws(UsageError) {
        if !values.contains(where: { $0.0 == .meters }) { values.append((.meters, .number(50))) }
    }
}
