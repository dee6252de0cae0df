/// Resumable (tus) uploads, when the node takes them.
struct UploadFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
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
    }

    func register(in server: FeatureContext) {
        guard let uploads = server.dependencies.uploads else { return }
        UploadController(dependencies: uploads, libraries: server.dependencies.libraries, activity: server.dependencies.jobActivity, now: server.now)
            .register(server.routes("uploads"))
    }
}
