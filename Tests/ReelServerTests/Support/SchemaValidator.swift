import Foundation

/// A JSON value as the wire has it (JSONDecoder keeps booleans and numbers apart, which
/// `JSONSerialization`'s NSNumber does not on every platform).
enum JSONValue: Decodable, CustomStringConvertible {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let items): "[\(items.count) items]"
        case .object(let object): "{\(object.keys.sorted().joined(separator: ","))}"
        }
    }
}

/// Checks a JSON value against the JSON Schema subset our OpenAPI document uses (`$ref`,
/// `type` incl. type lists, `required`, `properties`, `additionalProperties: false`, `items`,
/// `enum`, `minimum`/`maximum`, `minLength`/`maxLength`). Returns every violation, each with
/// the JSON path where it occurred.
struct SchemaValidator {
    /// `components.schemas` of the document, as `JSONSerialization` reads it.
    let components: [String: Any]

    func violations(_ value: JSONValue, _ schema: [String: Any], at path: String = "$") -> [String] {
        if let ref = schema["$ref"] as? String {
            let name = String(ref.split(separator: "/").last ?? "")
            guard let target = components[name] as? [String: Any] else { return ["\(path): unresolved \(ref)"] }
            return violations(value, target, at: path)
        }
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [type as? String ?? ""]
            guard allowed.contains(where: { Self.matches(value, type: $0) }) else {
                return ["\(path): \(value) is not \(allowed.joined(separator: "|"))"]
            }
        }
        var problems: [String] = []
        switch value {
        case .string(let text):
            if let options = schema["enum"] as? [String], !options.contains(text) { problems.append("\(path): \(value) is not one of \(options)") }
            if let minimum = schema["minLength"] as? Int, text.unicodeScalars.count < minimum { problems.append("\(path): shorter than \(minimum)") }
            if let maximum = schema["maxLength"] as? Int, text.unicodeScalars.count > maximum { problems.append("\(path): longer than \(maximum)") }
        case .number(let number):
            if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, number < minimum { problems.append("\(path): \(number) is below \(minimum)") }
            if let maximum = (schema["maximum"] as? NSNumber)?.doubleValue, number > maximum { problems.append("\(path): \(number) is above \(maximum)") }
            if let options = schema["enum"] as? [NSNumber], !options.contains(where: { $0.doubleValue == number }) {
                problems.append("\(path): \(number) is not one of \(options)")
            }
        case .object(let object):
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): required key \(key) is missing")
            }
            for (key, item) in object {
                if let property = properties[key] as? [String: Any] {
                    problems += violations(item, property, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): key \(key) is not in the schema")
                }
            }
        case .array(let items):
            if let itemSchema = schema["items"] as? [String: Any] {
                for (index, item) in items.enumerated() { problems += violations(item, itemSchema, at: "\(path)[\(index)]") }
            }
        case .null, .bool: break
        }
        return problems
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.bool, "boolean"), (.number, "number"), (.string, "string"), (.array, "array"), (.object, "object"): true
        case (.number(let number), "integer"): number.rounded() == number
        default: false
        }
    }
}
