import AreasProtocol

/// V-World's geocoder 2.0: a road address first, then the same text as a lot (parcel)
/// address. It has no place search, so a place question is asked the same way.
package struct VWorldGeocoder: GeocodeProvider {
    package let baseURL: String

    package init(baseURL: String) {
        self.baseURL = baseURL
    }

    package func requests(for question: GeocodeQuestion, key: String) -> [GeocodeRequest] {
        ["road", "parcel"].map { type in
            let query = "service=address&request=getcoord&version=2.0&crs=epsg:4326&format=json&type=\(type)&address=\(HTTPClient.encode(question.text))&key=\(HTTPClient.encode(key))"
            return GeocodeRequest(url: baseURL + (baseURL.contains("?") ? "&" : "?") + query, headers: [:])
        }
    }

    package func reply(status: Int, body: [UInt8]) -> GeocodeReply {
        guard status == 200 else { return .forStatus(status, detail: "") }
        guard let response = (try? JSONParser.parse(body))?["response"], let state = response["status"]?.string else {
            return .transient("an answer without a \"response\".\"status\"")
        }
        switch state {
        case "OK":
            let point = response["result"]?["point"]
            return .position(x: point?["x"]?.string, y: point?["y"]?.string)
        case "NOT_FOUND":
            return .notFound
        default:
            let code = response["error"]?["code"]?.string ?? ""
            let text = response["error"]?["text"]?.string ?? state
            return code.contains("KEY") || code.contains("DOMAIN") ? .refused("\(code): \(text)") : .transient("\(code.isEmpty ? state : code): \(text)")
        }
    }
}
