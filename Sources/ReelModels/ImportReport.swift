/// The outcome of `reelhouse import`, printed verbatim by `--json`:
/// `{"imported":[{"path","id","folder_name"}],"skipped":[{"path","reason"}],"rejected":[{"path","reason"}]}`.
public struct ImportReport: Codable, Sendable, Equatable {
    public struct Imported: Codable, Sendable, Equatable {
        public var path: String
        public var id: Int64
        public var folderName: String

        public init(path: String, id: Int64, folderName: String) {
            self.path = path
            self.id = id
            self.folderName = folderName
        }

        enum CodingKeys: String, CodingKey {
            case path, id
            case folderName = "folder_name"
        }
    }

    public struct Skipped: Codable, Sendable, Equatable {
        public var path: String
        public var reason: String

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public var imported: [Imported]
    public var skipped: [Skipped]
    public var rejected: [Skipped]
    /// Non-fatal problems (a malformed sidecar, a post that failed to transcode); not part of
    /// the `--json` contract's required keys but printed alongside.
    public var warnings: [Skipped]

    public init(imported: [Imported] = [], skipped: [Skipped] = [], rejected: [Skipped] = [], warnings: [Skipped] = []) {
        self.imported = imported
        self.skipped = skipped
        self.rejected = rejected
        self.warnings = warnings
    }
}
