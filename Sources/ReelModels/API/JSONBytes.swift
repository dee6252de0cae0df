import Foundation

/// A JSON text written straight into bytes, for the few wire shapes a server writes on every
/// request (a feed item). Writes what `JSONEncoder` with `.withoutEscapingSlashes` writes for
/// the same values — strings escaped the same way, integral doubles without a fraction — but
/// without its intermediate tree, which a profile of the feed at 1M posts (every item a cache
/// miss) put at two thirds of the request's own work.
public struct JSONBytes: Sendable {
    public private(set) var bytes: [UInt8] = []

    /// A double that JSON cannot spell (NaN, ±infinity): `JSONEncoder`'s default refuses them too.
    public struct NonFiniteNumber: Error, Equatable {
        public let value: Double
    }

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `{…}`, its members written by `members` through `key` and the value writers.
    public mutating func object(_ members: (inout JSONBytes) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        try members(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"name":`, after a comma unless it opens its object. For keys that are plain ASCII
    /// (every `CodingKeys` raw value is).
    public mutating func key(_ name: String) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: utf8[start..<index])
                appendEscape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }

    public mutating func int<Integer: BinaryInteger>(_ value: Integer) {
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// Integral values below 2^53 without a fraction ("15", as `JSONEncoder` writes 15.0);
    /// others in Swift's shortest round-trip spelling, which is valid JSON ("12.5", "1e-05").
    public mutating func double(_ value: Double) throws {
        guard value.isFinite else { throw NonFiniteNumber(value: value) }
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            int(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// `[e1,e2,…]`, each element written by `element`.
    public mutating func array<Element>(_ elements: [Element], _ element: (inout JSONBytes, Element) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
