import Foundation
import NIOCore
import PostgresNIO
import ReelStore

/// How a SQLite value is turned into a value of a PostgreSQL column's type. The statement casts
/// each parameter to the column's exact type (`$1::jsonb`), so the bound value only has to be
/// of the right family: SQLite's 0/1 becomes a boolean, a 16-byte blob a uuid, text stays text.
enum PostgresValueKind: Sendable, Equatable {
    case integer
    case float
    case boolean
    case bytes
    case uuid
    /// text, json and everything else PostgreSQL parses from text.
    case text

    init(typeName: String) {
        switch typeName {
        case "int2", "int4", "int8", "oid": self = .integer
        case "float4", "float8", "numeric": self = .float
        case "bool": self = .boolean
        case "bytea": self = .bytes
        case "uuid": self = .uuid
        default: self = .text
        }
    }

    /// Why a value does not fit, for the copy's one-line error.
    struct Mismatch: Error {
        let value: StoredValue
        let kind: PostgresValueKind
    }

    /// Appends `value` converted to this kind.
    func bind(_ value: StoredValue, to bindings: inout PostgresBindings) throws {
        switch (self, value) {
        case (_, .null): bindings.appendNull()
        case (.integer, .integer(let number)): bindings.append(number)
        case (.integer, .real(let number)) where number.rounded() == number && abs(number) < 9.2e18: bindings.append(Int64(number))
        case (.integer, .text(let text)) where Int64(text) != nil: bindings.append(Int64(text)!)
        case (.float, .real(let number)): bindings.append(number)
        case (.float, .integer(let number)): bindings.append(Double(number))
        case (.float, .text(let text)) where Double(text) != nil: bindings.append(Double(text)!)
        case (.boolean, .integer(let number)): bindings.append(number != 0)
        case (.boolean, .real(let number)): bindings.append(number != 0)
        case (.bytes, .blob(let bytes)): bindings.append(ByteBuffer(bytes: bytes))
        case (.bytes, .text(let text)): bindings.append(ByteBuffer(string: text))
        case (.uuid, .blob(let bytes)) where bytes.count == 16: bindings.append(Self.uuidText(bytes))
        case (.uuid, .text(let text)): bindings.append(text)
        case (.text, .text(let text)): bindings.append(text)
        case (.text, .integer(let number)): bindings.append(String(number))
        // Swift prints the shortest text that reads back as the same Double.
        case (.text, .real(let number)) where number.isFinite: bindings.append("\(number)")
        default: throw Mismatch(value: value, kind: self)
        }
    }

    /// A key value read back from PostgreSQL as the source stores it, so a resumed copy asks
    /// the source for the rows after it. The select list casts the column (see `keySelect`).
    func storedValue(_ cell: PostgresCell) throws -> StoredValue {
        switch self {
        case .integer, .boolean: return try cell.decode(Int64?.self).map(StoredValue.integer) ?? .null
        case .float: return try cell.decode(Double?.self).map(StoredValue.real) ?? .null
        case .bytes, .uuid: return try cell.decode(ByteBuffer?.self).map { StoredValue.blob(Array($0.readableBytesView)) } ?? .null
        case .text: return try cell.decode(String?.self).map(StoredValue.text) ?? .null
        }
    }

    /// The column as `storedValue` decodes it.
    func keySelect(_ quotedColumn: String) -> String {
        switch self {
        case .integer: return "\(quotedColumn)::bigint"
        case .boolean: return "\(quotedColumn)::int::bigint"
        case .float: return "\(quotedColumn)::float8"
        case .bytes: return quotedColumn
        case .uuid: return "uuid_send(\(quotedColumn))"
        case .text: return "\(quotedColumn)::text"
        }
    }

    /// Text keys compare by code point in both stores (SQLite's BINARY).
    func keyOrder(_ quotedColumn: String) -> String {
        self == .text ? "\(quotedColumn) COLLATE \"C\"" : quotedColumn
    }

    static func uuidText(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}
