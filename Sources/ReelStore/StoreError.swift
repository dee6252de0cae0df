/// The one error type of the store module.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case conflict(String)
    /// The caller asked for something that can never succeed as asked (a rating of 9, a
    /// negative page size); distinct from `conflict`, which depends on what is already stored.
    case invalid(String)
    case corrupt(String)
    case unavailable(String)

    public var description: String {
        switch self {
        case .notFound(let what): "not found: \(what)"
        case .conflict(let what): "conflict: \(what)"
        case .invalid(let why): "invalid request: \(why)"
        case .corrupt(let what): "database content is invalid: \(what)"
        case .unavailable(let what): "database unavailable: \(what)"
        }
    }
}
