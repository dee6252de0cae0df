import Foundation

/// Collects the warnings of one parse. A class so that nested readers (`owner`, `author`)
/// report into the same list; it never leaves the parse that created it.
final class WarningLog {
    private(set) var messages: [String] = []

    func add(_ message: String) {
        if !messages.contains(message) { messages.append(message) }
    }
}

/// Reads fields from a sidecar object without trusting their types: a number where text was
/// expected is used as text, `null` counts as missing, and anything unusable is skipped with a
/// warning instead of failing the whole sidecar.
struct FieldReader {
    let fields: [String: JSONValue]
    let log: WarningLog
    /// Where this object sits in the document (`owner.`), so warnings name the right field.
    let path: String

    init(_ fields: [String: JSONValue], log: WarningLog, path: String = "") {
        self.fields = fields
        self.log = log
        self.path = path
    }

    func has(_ key: String) -> Bool {
        if case .some(.null) = fields[key] { return false }
        return fields[key] != nil
    }

    /// The first of `keys` holding non-empty text.
    func text(_ keys: String...) -> String? {
        for key in keys {
            guard let value = fields[key], value != .null else { continue }
            if let text = value.trimmedText { return text }
            if value.text == nil { complain(key, value, expected: "text") }
        }
        return nil
    }

    /// Seconds since 1970, from a number or numeric text.
    func seconds(_ key: String) -> Double? {
        guard let value = fields[key], value != .null else { return nil }
        if let seconds = value.seconds { return seconds }
        complain(key, value, expected: "a number")
        return nil
    }

    /// A nested object, or nil (with a warning when the field holds something else).
    func object(_ key: String) -> FieldReader? {
        guard let value = fields[key], value != .null else { return nil }
        if let object = value.object { return FieldReader(object, log: log, path: path + key + ".") }
        complain(key, value, expected: "an object")
        return nil
    }

    /// A value that is either an object or plain text (gallery-dl's `author` is either).
    func objectOrText(_ key: String) -> (object: FieldReader?, text: String?) {
        guard let value = fields[key], value != .null else { return (nil, nil) }
        if let object = value.object { return (FieldReader(object, log: log, path: path + key + "."), nil) }
        if let text = value.trimmedText { return (nil, text) }
        if value.text == nil { complain(key, value, expected: "an object or text") }
        return (nil, nil)
    }

    func array(_ key: String) -> [JSONValue]? {
        guard let value = fields[key], value != .null else { return nil }
        if case .array(let items) = value { return items }
        complain(key, value, expected: "an array")
        return nil
    }

    /// Tags from an array (non-text entries skipped) or, as some tools and hand-edited files
    /// have it, from one string separated by commas or, lacking commas, by spaces.
    func tags(_ key: String) -> [String] {
        guard let value = fields[key], value != .null else { return [] }
        switch value {
        case .array(let items):
            let texts = items.compactMap(\.trimmedText)
            let unusable = items.filter { $0 != .null && $0.text == nil }.count
            if unusable > 0 { log.add("field \"\(path)\(key)\" has \(unusable) entries that are not text; skipped") }
            return texts
        case .string(let list):
            let separators: CharacterSet = list.contains(",") ? [","] : .whitespacesAndNewlines
            return list.components(separatedBy: separators)
        default:
            if let single = value.trimmedText { return [single] }
            complain(key, value, expected: "a list of tags")
            return []
        }
    }

    func complain(_ key: String, _ value: JSONValue, expected: String) {
        log.add("field \"\(path)\(key)\" is \(value.typeName), not \(expected); ignored")
    }
}
