/// Parsing of HLS attribute lists (`KEY=value,KEY="quoted, with commas"`), RFC 8216 §4.2.
enum HLSAttributes {
    static func parse(_ text: Substring) throws(HLSError) -> [String: String] {
        var result: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else {
                throw .invalidPlaylist("attribute without value in \(text)")
            }
            let name = String(text[index..<equals]).trimmingWhitespace()
            guard !name.isEmpty else { throw .invalidPlaylist("empty attribute name in \(text)") }
            var cursor = text.index(after: equals)
            let value: String
            if cursor < text.endIndex, text[cursor] == "\"" {
                let open = text.index(after: cursor)
                guard let close = text[open...].firstIndex(of: "\"") else {
                    throw .invalidPlaylist("unterminated quoted string in \(text)")
                }
                value = String(text[open..<close])
                cursor = text.index(after: close)
            } else {
                let end = text[cursor...].firstIndex(of: ",") ?? text.endIndex
                value = String(text[cursor..<end]).trimmingWhitespace()
                cursor = end
            }
            result[name] = value
            if cursor < text.endIndex {
                guard text[cursor] == "," else { throw .invalidPlaylist("expected ',' in \(text)") }
                cursor = text.index(after: cursor)
            }
            index = cursor
        }
        return result
    }

    /// A fixed-point decimal with `digits` decimals, as HLS writes durations and frame rates.
    static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale), fraction = scaled % Int64(scale)
        var fractionText = String(fraction)
        while fractionText.count < digits { fractionText = "0" + fractionText }
        return digits == 0 ? String(whole) : "\(whole).\(fractionText)"
    }
}
