import Foundation

/// The `s3://` media storage setting:
/// `s3://BUCKET[/PREFIX]?endpoint=http://127.0.0.1:8333&region=us-east-1`.
/// `region` defaults to `us-east-1`; `endpoint` to AWS itself (`https://s3.REGION.amazonaws.com`).
/// Addressing is always path-style.
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    public var bucket: String
    /// Empty, or a key prefix ending in `/` under which everything is stored.
    public var prefix: String
    public var endpoint: S3Endpoint
    public var region: String

    public init(bucket: String, prefix: String = "", endpoint: S3Endpoint, region: String) {
        self.bucket = bucket
        self.prefix = prefix
        self.endpoint = endpoint
        self.region = region
    }

    /// Whether a storage setting names S3 at all (anything else is the local data folder).
    public static func isS3(_ setting: String) -> Bool { setting.lowercased().hasPrefix("s3://") }

    public init(parsing text: String) throws {
        let example = "expected s3://BUCKET[/PREFIX]?endpoint=http://HOST:PORT&region=REGION"
        guard Self.isS3(text), let components = URLComponents(string: text) else {
            throw S3Error.invalidLocation("\(text.prefix(200)): \(example)")
        }
        guard let bucket = components.host, Self.isValidBucket(bucket) else {
            throw S3Error.invalidLocation("bucket \"\(components.host ?? "")\" must be 3–63 lower-case letters, digits, dots or hyphens; \(example)")
        }
        guard components.user == nil, components.password == nil, components.port == nil, components.fragment == nil else {
            throw S3Error.invalidLocation("credentials and ports do not belong in the s3:// location (use AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY and ?endpoint=); \(example)")
        }
        // "/library/one/" and "/library/one" both mean the prefix "library/one/".
        var path = Substring(components.path)
        if path.hasPrefix("/") { path = path.dropFirst() }
        if path.hasSuffix("/") { path = path.dropLast() }
        guard path.isEmpty || path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw S3Error.invalidLocation("prefix \(components.path) has an empty, . or .. segment")
        }
        var region = "us-east-1"
        var endpointText: String? = nil
        for item in components.queryItems ?? [] {
            switch item.name {
            case "region":
                guard let value = item.value, !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                    throw S3Error.invalidLocation("region \"\(item.value ?? "")\" is not a region name like us-east-1")
                }
                region = value
            case "endpoint":
                endpointText = item.value
            default:
                throw S3Error.invalidLocation("unknown setting \"\(item.name)\" (only endpoint and region); \(example)")
            }
        }
        self.bucket = bucket
        prefix = path.isEmpty ? "" : path + "/"
        self.region = region
        endpoint = try S3Endpoint(endpointText ?? "https://s3.\(region).amazonaws.com")
    }

    /// S3's bucket naming rules (the subset every S3-compatible server accepts).
    static func isValidBucket(_ name: String) -> Bool {
        (3...63).contains(name.count)
            && name.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "." || $0 == "-" }
            && name.first.map { $0.isLetter || $0.isNumber } == true
            && name.last.map { $0.isLetter || $0.isNumber } == true
            && !name.contains("..")
    }

    public var description: String {
        "s3://\(bucket)/\(prefix)?endpoint=\(endpoint.base)&region=\(region)"
    }
}
