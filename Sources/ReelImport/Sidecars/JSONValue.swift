import Foundation

/// A parsed JSON document that keeps what the bytes said, including whole numbers too large
/// for a `Double` (tweet and Instagram IDs), so the mappers can be lenient about types.
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Text as a person would read it: numbers become their digits (an uploader called
    /// `12345`), `null`, booleans and containers are not text.
    var text: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value) where value.isFinite:
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        default: nil
        }
    }

    /// Text with surrounding whitespace removed; nil when nothing is left.
    var trimmedText: String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// Seconds, from a number or a numeric string (`"1680350400"`, `"1680350400.5"`).
    var seconds: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value.isFinite ? value : nil
        case .string(let value): Double(value.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// A name for the value's type, for warnings ("expected text, found an array").
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
