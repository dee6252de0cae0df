/// Resumable (tus) uploads, when the node takes them.
struct UploadFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { UploadSettings.self }

    func register(in server: FeatureContext) {
        guard let uploads = server.dependencies.uploads else { return }
        UploadController(dependencies: uploads, libraries: server.dependencies.libraries, activity: server.dependencies.jobActivity, now: server.now)
            .register(server.routes("uploads"))
    }
}

/// Upload size policy (seed 004): larger uploads are refused at creation; videos above
/// `uploadCompressAboveBytes` are compressed to H.264 ≤ 1080p30 before their ladder and the
/// compressed file kept (the original too when `keepOriginalUploads`). An incomplete upload is
/// deleted `uploadExpirySeconds` after it was created. A completing PATCH waits up to
/// `uploadImportWaitSeconds` for its import before answering with the import job alone (the
/// client then follows the job or asks HEAD); 0 answers at once.
public struct UploadSettings: FeatureSettings {
    public var uploadMaxBytes = 50_000_000
    public var uploadCompressAboveBytes = 10_000_000
    public var keepOriginalUploads = false
    public var uploadExpirySeconds = 86_400
    public var uploadImportWaitSeconds: Double = 20

    public init() {}

    public static let declarations: [ConfigurationSetting] = [
        .init("uploadMaxBytes", .integer, env: "REELHOUSE_UPLOAD_MAX_BYTES", example: "1000000", "Largest upload accepted."),
        .init("uploadCompressAboveBytes", .integer, env: "REELHOUSE_UPLOAD_COMPRESS_ABOVE_BYTES", example: "500000",
              "Uploaded videos above this size are compressed before their ladder."),
        .init("keepOriginalUploads", .boolean, env: "REELHOUSE_KEEP_ORIGINAL_UPLOADS", example: "true",
              "Keep the original of a compressed upload."),
        .init("uploadExpirySeconds", .integer, env: "REELHOUSE_UPLOAD_EXPIRY_SECONDS", example: "3600",
              "An incomplete upload is deleted this long after it began."),
        .init("uploadImportWaitSeconds", .number, env: "REELHOUSE_UPLOAD_IMPORT_WAIT_SECONDS", example: "5",
              "How long an upload's last PATCH waits for its import before naming only the import job."),
    ]

    public func validate() throws(ConfigurationError) {
        guard uploadMaxBytes >= 1, uploadCompressAboveBytes >= 0, uploadExpirySeconds >= 60 else {
            throw ConfigurationError("uploadMaxBytes must be positive, uploadCompressAboveBytes not negative, uploadExpirySeconds at least 60")
        }
        guard (0...600).contains(uploadImportWaitSeconds) else {
            throw ConfigurationError("uploadImportWaitSeconds must be between 0 and 600")
        }
    }
}
