import Foundation

/// A feature's operator settings, declared, valued and checked in the feature's own file.
///
/// Every setting is one key of one flat config object (file, `REELHOUSE_*` variables, `serve`
/// flags: `ConfigurationLoader`). Each feature reads its own keys from that object into a
/// `Codable` struct of its own, and `ServerConfiguration` holds one of each by type
/// (`configuration[UploadSettings.self]`), so a new setting edits its feature's file: not
/// `ServerConfiguration`, the loader or the wiring.
public protocol FeatureSettings: Codable, Sendable, Equatable {
    /// The defaults.
    init()
    /// One declaration per setting (`ConfigurationSetting`); its `key` is a property of this type.
    static var declarations: [ConfigurationSetting] { get }
    /// Refuses values that decode but make no sense: at startup, not at the first request.
    func validate() throws(ConfigurationError)
}

extension FeatureSettings {
    public func validate() throws(ConfigurationError) {}

    /// Whether `other` is these settings (false for another type's).
    func isEqual(to other: any FeatureSettings) -> Bool { (other as? Self) == self }

    /// This value as config keys and JSON values.
    func values() -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any]) ?? [:]
    }

    /// The settings read from a complete config object (every key of this type present, as
    /// `ConfigurationLoader` gives it); other types' keys are ignored.
    static func decoded(from object: Data) throws -> Self {
        try JSONDecoder().decode(Self.self, from: object)
    }
}

/// Fails the positive settings that are not.
func requirePositive(_ values: KeyValuePairs<String, Double?>) throws(ConfigurationError) {
    if let (key, _) = values.first(where: { ($0.value ?? 1) <= 0 }) { throw ConfigurationError("\(key) must be positive") }
}
