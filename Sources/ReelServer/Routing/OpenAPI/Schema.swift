import Foundation

/// A JSON object as `JSONSerialization` takes it: the OpenAPI document is assembled from these.
typealias JSONObject = [String: Any]

/// Small builders for the JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the wire types.
/// Response objects are closed (`additionalProperties: false`): a field added to a wire type
/// without its schema fails the schema test and schemathesis, so the document cannot fall
/// behind. Request objects stay open, because the server ignores unknown keys.
enum Schema {
    static func ref(_ name: String) -> JSONObject { ["$ref": "#/components/schemas/\(name)"] }

    static func string(minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil, description: String? = nil) -> JSONObject {
        var schema: JSONObject = ["type": "string"]
        if let minLength { schema["minLength"] = minLength }
        if let maxLength { schema["maxLength"] = maxLength }
        if let format { schema["format"] = format }
        if let description { schema["description"] = description }
        return schema
    }

    static var int64: JSONObject { ["type": "integer", "format": "int64"] }
    static var id: JSONObject { ["type": "integer", "format": "int64", "minimum": 1] }
    static var dateTime: JSONObject { ["type": "string", "format": "date-time"] }
    static var boolean: JSONObject { ["type": "boolean"] }

    static func integer(minimum: Int? = nil, maximum: Int? = nil, description: String? = nil) -> JSONObject {
        var schema: JSONObject = ["type": "integer"]
        if let minimum { schema["minimum"] = minimum }
        if let maximum { schema["maximum"] = maximum }
        if let description { schema["description"] = description }
        return schema
    }

    static func number(minimum: Double? = nil, maximum: Double? = nil, description: String? = nil) -> JSONObject {
        var schema: JSONObject = ["type": "number"]
        if let minimum { schema["minimum"] = minimum }
        if let maximum { schema["maximum"] = maximum }
        if let description { schema["description"] = description }
        return schema
    }

    static func oneOf(_ values: [String], description: String? = nil) -> JSONObject {
        var schema: JSONObject = ["type": "string", "enum": values]
        if let description { schema["description"] = description }
        return schema
    }

    static func array(_ items: JSONObject, minItems: Int? = nil, maxItems: Int? = nil) -> JSONObject {
        var schema: JSONObject = ["type": "array", "items": items]
        if let minItems { schema["minItems"] = minItems }
        if let maxItems { schema["maxItems"] = maxItems }
        return schema
    }

    /// A response object: every key listed, unknown keys refused.
    static func object(_ properties: [String: JSONObject], required: [String], description: String? = nil) -> JSONObject {
        var schema: JSONObject = ["type": "object", "properties": properties, "required": required, "additionalProperties": false]
        if let description { schema["description"] = description }
        return schema
    }

    /// A request object: unknown keys are ignored by the server, so they are allowed here.
    static func request(_ properties: [String: JSONObject], required: [String]) -> JSONObject {
        ["type": "object", "properties": properties, "required": required]
    }

    /// `schema` or JSON null.
    static func nullable(_ schema: JSONObject) -> JSONObject {
        var copy = schema
        if let type = schema["type"] as? String { copy["type"] = [type, "null"] }
        if let values = schema["enum"] as? [String] { copy["enum"] = values.map { $0 as Any } + [NSNull()] }
        return copy
    }

    static var binary: JSONObject { ["type": "string", "format": "binary"] }
}
