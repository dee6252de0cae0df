import Foundation
import ReelS3
import Testing

@Suite("S3Location: the s3:// storage setting")
struct S3LocationTests {
    @Test("Bucket, prefix, endpoint and region")
    func full() throws {
        let location = try S3Location(parsing: "s3://reel-media/library/one?endpoint=http://127.0.0.1:8333&region=eu-west-3")
        #expect(location.bucket == "reel-media")
        #expect(location.prefix == "library/one/")
        #expect(location.endpoint.base == "http://127.0.0.1:8333")
        #expect(location.endpoint.hostHeader == "127.0.0.1:8333")
        #expect(location.region == "eu-west-3")
        #expect(try S3Location(parsing: "s3://reel-media/library/one/").prefix == "library/one/")
    }

    @Test("Defaults: no prefix, us-east-1, AWS's endpoint for the region")
    func defaults() throws {
        let plain = try S3Location(parsing: "s3://reel-media")
        #expect(plain.prefix == "")
        #expect(plain.region == "us-east-1")
        #expect(plain.endpoint.base == "https://s3.us-east-1.amazonaws.com")
        #expect(try S3Location(parsing: "s3://reel-media/?region=ap-southeast-2").endpoint.base == "https://s3.ap-southeast-2.amazonaws.com")
        // A default port is not part of the Host header.
        #expect(try S3Endpoint("https://s3.example.com:443").hostHeader == "s3.example.com")
    }

    @Test("Bad settings are refused with a message that says what is wrong", arguments: [
        ("file:///data", "expected s3://"),
        ("s3://", "bucket"),
        ("s3://UPPER", "bucket"),
        ("s3://ab", "bucket"),
        ("s3://bucket_with_underscore", "bucket"),
        ("s3://key:secret@reel-media", "credentials"),
        ("s3://reel-media?endpoint=ftp://host", "endpoint"),
        ("s3://reel-media?endpoint=http://host/path", "endpoint"),
        ("s3://reel-media?bucket=x", "unknown setting"),
        ("s3://reel-media?region=us_east", "region"),
        ("s3://reel-media/a//b", "prefix"),
        ("s3://reel-media/../b", "prefix"),
    ])
    func refused(_ setting: String, _ mentions: String) {
        do {
            _ = try S3Location(parsing: setting)
            Issue.record("\(setting) was accepted")
        } catch let error as S3Error {
            guard case .invalidLocation(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains(mentions), "\(setting): \(message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Only s3:// settings are S3")
    func isS3() {
        #expect(S3Location.isS3("s3://b"))
        #expect(S3Location.isS3("S3://b"))
        #expect(!S3Location.isS3("file:/data"))
        #expect(!S3Location.isS3("/data/media"))
    }
}
