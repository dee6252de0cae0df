import Foundation

/// Everything an operator can set: the node's own settings (`NodeSettings`, read as this
/// value's properties: `configuration.port`) and one settings value per feature, by type
/// (`configuration[UploadSettings.self].uploadMaxBytes`). Layered by `ConfigurationLoader`:
/// the defaults, then a JSON config file, then `REELHOUSE_*` environment variables, then flags.
/// Tests build one directly and change what they need.
@dynamicMemberLookup
public struct ServerConfiguration: Sendable, Equatable {
    public var node = NodeSettings()
    /// The features' settings set so far, by type; a type not here has its defaults.
    private var features: [ObjectIdentifier: any FeatureSettings] = [:]

    public init() {}

    /// Every feature's settings type (`ServerFeature.settings`), the node's first.
    static var settingsTypes: [any FeatureSettings.Type] { [NodeSettings.self] + ServerFeatures.standard.compactMap(\.settings) }

    public subscript<Settings: FeatureSettings>(_: Settings.Type) -> Settings {
        get {
            if Settings.self == NodeSettings.self { return node as! Settings }
            return features[ObjectIdentifier(Settings.self)] as? Settings ?? Settings()
        }
        set {
            if let node = newValue as? NodeSettings {
                self.node = node
            } else {
                features[ObjectIdentifier(Settings.self)] = newValue
            }
        }
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<NodeSettings, Value>) -> Value {
        get { node[keyPath: keyPath] }
        set { node[keyPath: keyPath] = newValue }
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<NodeSettings, Value>) -> Value { node[keyPath: keyPath] }

    /// The settings of `type`, as an existential (for code that walks every type).
    func settings(_ type: any FeatureSettings.Type) -> any FeatureSettings { self[type] }

    public static func == (lhs: ServerConfiguration, rhs: ServerConfiguration) -> Bool {
        let types = (Array(lhs.features.values) + Array(rhs.features.values)).map { type(of: $0) as any FeatureSettings.Type }
        return lhs.node == rhs.node && types.allSatisfy { lhs.settings($0).isEqual(to: rhs.settings($0)) }
    }

    /// Every setting of every known type as config keys and JSON values (secrets included).
    public var values: [String: Any] {
        Self.settingsTypes.reduce(into: [:]) { values, type in
            values.merge(settings(type).values()) { first, _ in first }
        }
    }

    /// The configuration read from a complete config object: `values` as JSON, changed.
    init(object: Data) throws {
        for type in Self.settingsTypes {
            func decode<Settings: FeatureSettings>(_ type: Settings.Type) throws { self[type] = try Settings.decoded(from: object) }
            try decode(type)
        }
    }

    /// Refuses values that decode but make no sense, each type by its own rules.
    func validate() throws(ConfigurationError) {
        for type in Self.settingsTypes { try settings(type).validate() }
    }
}
