import AreasProtocol

/// Kakao Local's REST API: `/v2/local/search/address.json` for addresses and
/// `/v2/local/search/keyword.json` for places, the key in `Authorization: KakaoAK`. The first
/// document wins; none is "not found".
package struct KakaoGeocoder: GeocodeProvider {
    package let baseURL: String

    package init(baseURL: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    package func requests(for question: GeocodeQuestion, key: String) -> [GeocodeRequest] {
        let path = question.kind == .address ? "/v2/local/search/address.json" : "/v2/local/search/keyword.json"
        return [GeocodeRequest(url: "\(baseURL)\(path)?query=\(HTTPClient.encode(question.text))", headers: ["Authorization": "KakaoAK \(key)"])]
    }

    package func reply(status: Int, body: [UInt8]) -> GeocodeReply {
        let answer = try? JSONParser.parse(body)
        guard status == 200 else {
            return .forStatus(status, detail: answer?["message"]?.string ?? answer?["errorType"]?.string ?? "")
        }
        guard let answer, case .array(let documents)? = answer["documents"] else {
            return .transient("an answer without a \"documents\" list")
        }
        guard let first = documents.first else { return .notFound }
        return .position(x: first["x"]?.string, y: first["y"]?.string)
    }
}
