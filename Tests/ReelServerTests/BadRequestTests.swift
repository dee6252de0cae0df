import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// Malformed JSON, wrong types, huge bodies, unknown ids, invalid values: each a 4xx with the
/// error shape, never a 5xx.
@Suite("Bad requests")
struct BadRequestTests {
    @Test func everyBadRequestIsA4xxWithTheErrorShape() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let post = try await server.publishVideo(name: "clip")
        let huge = "{\"rating\": 1, \"pad\": \"" + String(repeating: "x", count: 200_000) + "\"}"
        let cases: [(HTTPRequest.Method, String, String?, HTTPResponse.Status)] = [
            (.put, "/api/v1/videos/\(post.id)/rating", "{not json", .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", #"{"rating":"five"}"#, .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", #"{"rating":6}"#, .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", #"{"rating":-1}"#, .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", #"{}"#, .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", "[]", .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", nil, .badRequest),
            (.put, "/api/v1/videos/\(post.id)/rating", huge, .contentTooLarge),
            (.put, "/api/v1/videos/999999/rating", #"{"rating":3}"#, .notFound),
            (.get, "/api/v1/videos/999999", nil, .notFound),
            (.get, "/api/v1/videos/abc", nil, .badRequest),
            (.get, "/api/v1/videos/-4", nil, .badRequest),
            (.get, "/api/v1/videos/99999999999999999999999", nil, .badRequest),
            (.post, "/api/v1/videos/\(post.id)/tags", #"{"tags":[]}"#, .badRequest),
            (.post, "/api/v1/videos/\(post.id)/tags", #"{"tags":["a,b"]}"#, .badRequest),
            (.post, "/api/v1/videos/\(post.id)/tags", #"{"tags":"cats"}"#, .badRequest),
            (.post, "/api/v1/videos/\(post.id)/flags", #"{"flag":""}"#, .badRequest),
            (.put, "/api/v1/videos/\(post.id)/position", #"{"seconds":-3}"#, .badRequest),
            (.post, "/api/videos/..%2F..%2Fetc/favorite", #"{"is_favorited":true}"#, .badRequest),
            (.post, "/api/videos/clip/favorite", #"{"is_favorited":"yes"}"#, .badRequest),
            (.get, "/api/v1/jobs/xyz", nil, .badRequest),
            (.get, "/api/v1/jobs?state=exploded", nil, .badRequest),
            (.post, "/api/v1/session", #"{"username":1}"#, .badRequest),
        ]
        try await server.application().test(.router) { client in
            for (method, uri, body, expected) in cases {
                let response = try await client.send(method, uri, key: server.memberKey, json: body)
                #expect(response.status == expected, "\(method) \(uri) \(body?.prefix(40) ?? "") → \(response.status)")
                let error = try? decode(APIErrorEnvelope.self, response.body)
                #expect(error != nil, "\(uri) error body is not the error shape")
                #expect(!(error?.error.message.contains("/tmp") ?? false))
            }
            // And the server still serves.
            let r1 = try await client.send(.get, "/api/v1/videos/\(post.id)", key: server.memberKey)
            #expect(r1.status == .ok)
        }
    }
}

@Suite("The body limit is the operator's")
struct BodyLimitTests {
    @Test func maxBodyBytesDecidesWhatFits() async throws {
        let padded = "{\"rating\": 4, \"pad\": \"" + String(repeating: "x", count: 2_000) + "\"}"
        for (limit, expected) in [(1_024, HTTPResponse.Status.contentTooLarge), (8_192, .ok)] {
            let server = try await TestServer { $0.maxBodyBytes = limit }
            let post = try await server.publishVideo(name: "clip")
            try await server.application().test(.router) { client in
                let response = try await client.send(.put, "/api/v1/videos/\(post.id)/rating", key: server.memberKey, json: padded)
                #expect(response.status == expected, "limit \(limit) → \(response.status)")
                if expected == .contentTooLarge {
                    #expect(try decode(APIErrorEnvelope.self, response.body).error.message.contains("\(limit) bytes"))
                }
            }
        }
    }
}
