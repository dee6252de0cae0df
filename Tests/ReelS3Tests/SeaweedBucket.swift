import AsyncHTTPClient
import Foundation
import ReelS3
import ReelTestSupport

/// A fresh, empty bucket on the process's SeaweedFS, and a client signed with its keys.
struct SeaweedBucket {
    let server: SeaweedS3
    let client: S3Client
    let name: String

    static let credentials = S3Credentials(accessKeyID: SeaweedS3.accessKey, secretAccessKey: SeaweedS3.secretKey)

    static func fresh() async throws -> SeaweedBucket {
        let server = try await SeaweedS3.shared()
        let client = S3Client(endpoint: try S3Endpoint(server.endpoint), region: SeaweedS3.region, credentials: credentials)
        let name = "reel-" + UUID().uuidString.lowercased().prefix(18)
        // Right after start the filer or volume server may not be registered yet: retry
        // creating the bucket and writing into it until both work.
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                try await client.createBucket(name)
                try await client.putObject(bucket: name, key: "probe", body: Data("probe".utf8))
                try await client.deleteObject(bucket: name, key: "probe")
                return SeaweedBucket(server: server, client: client, name: name)
            } catch {
                if Date() > deadline { throw error }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// The same endpoint and bucket signed with another secret.
    func client(secret: String) throws -> S3Client {
        S3Client(
            endpoint: try S3Endpoint(server.endpoint), region: SeaweedS3.region,
            credentials: S3Credentials(accessKeyID: SeaweedS3.accessKey, secretAccessKey: secret)
        )
    }
}

/// Bytes where every offset is distinguishable.
func patterned(_ count: Int, seed: UInt8 = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) })
}
