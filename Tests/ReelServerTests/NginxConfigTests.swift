import Foundation
import ReelStorage
import Testing

@testable import ReelServer

/// `NginxConfig` as text, read back by a small nginx-syntax reader: blocks, directives and
/// their arguments, so the tests ask "what does location /media/ do", not "is this substring
/// somewhere". Through real nginx: Tests/e2e/test_edge_nginx.py.
@Suite("nginx edge config")
struct NginxConfigTests {
    static let local = NginxConfig(listen: "127.0.0.1:8088", upstreams: ["127.0.0.1:8080", "10.0.0.2:8080"], mediaRoot: "/srv/reelhouse/data/media",
                                   cacheDir: "/var/cache/reelhouse-edge")
    static let proxied = NginxConfig(listen: "8088", upstreams: ["api-1.internal:8080"], mediaRoot: nil, cacheDir: "cache")

    @Test("Media is checked once per raw path, then served from the media root by the checked path only")
    func localMedia() throws {
        let http = try #require(NginxSyntax.parse(Self.local.render()).block("http"))
        let server = try #require(http.block("server"))
        #expect(server.values("listen") == [["127.0.0.1:8088"]])

        let check = try #require(server.block("location", "=", NginxConfig.checkLocation))
        #expect(check.values("internal") == [[]])
        #expect(check.values("proxy_pass") == [["http://reelhouse_api/internal/media-auth"]])
        #expect(check.values("proxy_pass_request_headers") == [["off"]], "the answer may not depend on the client's headers")
        #expect(check.values("proxy_set_header").contains(["X-Original-URI", "$reelhouse_request_path"]))
        #expect(check.values("proxy_cache") == [["reelhouse_auth"]])
        #expect(check.values("proxy_cache_key") == [["$reelhouse_request_path"]], "kept under exactly the string the API checked")
        #expect(check.values("proxy_cache_valid").isEmpty, "kept for the answer's own max-age, nothing longer")
        #expect(check.values("proxy_cache_use_stale").isEmpty)
        // $reelhouse_request_path is $request_uri up to the query.
        let map = try #require(http.block("map", "$request_uri", "$reelhouse_request_path"))
        #expect(map.directives.map(\.name) == ["~^(?<reelhouse_path_only>[^?]*)"])

        for prefix in ["/media/", "/img/"] {
            let location = try #require(server.block("location", prefix))
            #expect(location.values("auth_request") == [[NginxConfig.checkLocation]])
            #expect(location.values("auth_request_set").contains(["$reelhouse_path", "$upstream_http_x_reelhouse_path"]))
            #expect(location.values("auth_request_set").contains(["$reelhouse_status", "$upstream_http_x_reelhouse_status"]))
            #expect(location.values("root") == [["/srv/reelhouse/data/media"]])
            #expect(location.values("try_files") == [["/$reelhouse_path", "=404"]])
            #expect(location.values("disable_symlinks") == [["on", "from=$document_root"]])
            #expect(location.values("add_header").contains(["Cache-Control", "public, max-age=31536000, immutable"]))
            #expect(location.values("proxy_pass").isEmpty && location.values("alias").isEmpty)
            let refused = try #require(location.values("error_page").first { $0.first == "403" }?.last)
            let handler = try #require(server.block("location", refused))
            #expect(handler.children.compactMap { $0.arguments == ["($reelhouse_status", "=", "410)"] ? $0.values("return").first?.first : nil } == ["410"])
            #expect(handler.children.compactMap { $0.arguments == ["($reelhouse_status", "=", "404)"] ? $0.values("return").first?.first : nil } == ["404"])
            #expect(handler.values("return").first?.first == "403")
        }
        #expect(http.values("proxy_cache_path").map(\.first) == ["/var/cache/reelhouse-edge/auth"], "no media cache with a media root")
    }

    @Test("Kept check answers are keyed under the secret's tag, so a rotated secret's config finds none of them")
    func answersAreKeyedBySecret() throws {
        let old = NginxConfig.secretTag(of: Data(repeating: 1, count: 32))
        let new = NginxConfig.secretTag(of: Data(repeating: 2, count: 32))
        #expect(old.count == 12 && old.allSatisfy(\.isHexDigit) && old != new)
        #expect(old == NginxConfig.secretTag(of: Data(repeating: 1, count: 32)), "the same secret, the same tag on every run")
        func key(_ tag: String?) throws -> [[String]] {
            var config = Self.local
            config.secretTag = tag
            #expect(config.problems.isEmpty)
            let server = try #require(NginxSyntax.parse(config.render()).block("http")?.block("server"))
            return try #require(server.block("location", "=", NginxConfig.checkLocation)).values("proxy_cache_key")
        }
        #expect(try key(old) == [["\(old):$reelhouse_request_path"]])
        #expect(try key(new) == [["\(new):$reelhouse_request_path"]])
        var hostile = Self.local
        hostile.secretTag = "x\"; proxy_cache off; #"
        #expect(!hostile.problems.isEmpty, "a tag is hex digits only")
    }

    @Test("Keys go to the API on every request, never checked or kept at the edge")
    func keys() throws {
        for config in [Self.local, Self.proxied] {
            let server = try #require(NginxSyntax.parse(config.render()).block("http")?.block("server"))
            let key = try #require(server.block("location", "~", "^/media/[^/]+/[^/]+/key$"))
            #expect(key.values("proxy_pass") == [["http://reelhouse_api"]])
            #expect(key.values("proxy_cache").isEmpty && key.values("auth_request").isEmpty)
            // A regex location wins over the /media/ prefix, which has no ^~ to stop it.
            #expect(server.block("location", "^~", "/media/") == nil)
        }
    }

    @Test("Without a media root, files come from the API once and are kept per checked file")
    func proxiedMedia() throws {
        let http = try #require(NginxSyntax.parse(Self.proxied.render()).block("http"))
        #expect(http.values("proxy_cache_path").map(\.first) == ["cache/auth", "cache/media"])
        let server = try #require(http.block("server"))
        for prefix in ["/media/", "/img/"] {
            let location = try #require(server.block("location", prefix))
            #expect(location.values("auth_request") == [[NginxConfig.checkLocation]])
            #expect(location.values("proxy_pass") == [["http://reelhouse_api"]])
            #expect(location.values("proxy_cache") == [["reelhouse_media"]])
            #expect(location.values("proxy_cache_key") == [["$reelhouse_path"]], "one copy for every token")
            #expect(location.values("proxy_no_cache") == [["$reelhouse_unnamed"]])
            #expect(location.values("root").isEmpty && location.values("try_files").isEmpty)
        }
        let unnamed = try #require(http.block("map", "$reelhouse_path", "$reelhouse_unnamed"))
        #expect(unnamed.values("") == [["1"]])
    }

    @Test("Several upstreams form one group; uploads stream through; the internal routes stay inside")
    func upstreamsAndTheRest() throws {
        let http = try #require(NginxSyntax.parse(Self.local.render()).block("http"))
        let upstream = try #require(http.block("upstream", "reelhouse_api"))
        #expect(upstream.values("server").map(\.first) == ["127.0.0.1:8080", "10.0.0.2:8080"])
        #expect(http.values("proxy_next_upstream").first?.contains("error") == true)
        let server = try #require(http.block("server"))
        let uploads = try #require(server.block("location", "/api/v1/uploads"))
        #expect(uploads.values("proxy_request_buffering") == [["off"]])
        #expect(uploads.values("client_max_body_size") == [["0"]])
        let rest = try #require(server.block("location", "/"))
        #expect(rest.values("proxy_pass") == [["http://reelhouse_api"]])
        let inside = try #require(server.block("location", "/internal/"))
        #expect(inside.values("return").first?.first == "404")
        // Own pid, logs and temporary files under nginx's prefix: no root-owned paths.
        let top = NginxSyntax.parse(Self.local.render())
        #expect(top.values("pid") == [["nginx.pid"]])
        for directive in ["client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path", "access_log"] {
            #expect(http.values(directive).first?.first?.hasPrefix("/") == false, "\(directive)")
        }
    }

    @Test("MIME types are the API's")
    func types() throws {
        let http = try #require(NginxSyntax.parse(Self.local.render()).block("http"))
        let types = try #require(http.block("types"))
        for ext in NginxConfig.mediaExtensions {
            let type = try #require(types.directives.first { $0.arguments.contains(ext) }?.name, "\(ext)")
            #expect(MediaType.of("x.\(ext)").hasPrefix(type), "\(ext)")
        }
    }

    @Test("Values that could add a directive are refused before anything is rendered")
    func validation() {
        #expect(Self.local.problems.isEmpty && Self.proxied.problems.isEmpty)
        #expect(NginxConfig(listen: "[::1]:8088").problems.isEmpty)
        let hostile: [NginxConfig] = [
            NginxConfig(listen: "80; include /etc/passwd"), NginxConfig(listen: "0"), NginxConfig(listen: "70000"), NginxConfig(listen: "80 default_server"),
            NginxConfig(upstreams: []), NginxConfig(upstreams: ["127.0.0.1:8080 backup"]), NginxConfig(upstreams: ["127.0.0.1"]),
            NginxConfig(upstreams: ["a:1;b"]), NginxConfig(upstreams: ["[::1:80"]),
            NginxConfig(mediaRoot: "relative/media"), NginxConfig(mediaRoot: "/srv/media; autoindex on"), NginxConfig(mediaRoot: "/srv/$uri"),
            NginxConfig(mediaRoot: "/srv/me dia"), NginxConfig(mediaRoot: "/srv/media\n"), NginxConfig(cacheDir: "cache}"), NginxConfig(cacheDir: ""),
            NginxConfig(cacheDir: "/tmp/'x'"),
        ]
        for config in hostile {
            #expect(!config.problems.isEmpty, "\(config)")
        }
    }

    @Test("Every error body the edge writes is the API's JSON")
    func errorBodies() throws {
        let server = try #require(NginxSyntax.parse(Self.local.render()).block("http")?.block("server"))
        var bodies: [String] = []
        for location in server.blocks("location") {
            bodies += location.values("return").compactMap { $0.count == 2 ? $0[1] : nil }
            for nested in location.children { bodies += nested.values("return").compactMap { $0.count == 2 ? $0[1] : nil } }
        }
        #expect(bodies.count >= 7)
        for body in bodies {
            let decoded = try JSONDecoder().decode(APIErrorEnvelope.self, from: Data(body.utf8))
            #expect(["forbidden", "expired", "not_found"].contains(decoded.error.code), "\(body)")
        }
    }
}

/// Just enough of nginx's config syntax to read back what we render: `name args…;` and
/// `name args… { … }`, `#` comments, single- and double-quoted arguments.
struct NginxSyntax: Equatable {
    var name: String
    var arguments: [String]
    /// Simple directives (those ending in `;`).
    var directives: [NginxSyntax] = []
    /// Blocks (those with `{ … }`).
    var children: [NginxSyntax] = []

    static func parse(_ text: String) -> NginxSyntax {
        var tokens = tokenize(text)[...]
        return NginxSyntax(name: "", arguments: [], directives: [], children: []).reading(&tokens)
    }

    private func reading(_ tokens: inout ArraySlice<String>) -> NginxSyntax {
        var block = self
        var words: [String] = []
        while let token = tokens.popFirst() {
            switch token {
            case ";":
                if let first = words.first { block.directives.append(NginxSyntax(name: first, arguments: Array(words.dropFirst()))) }
                words = []
            case "{":
                let child = NginxSyntax(name: words.first ?? "", arguments: Array(words.dropFirst())).reading(&tokens)
                block.children.append(child)
                words = []
            case "}":
                return block
            default:
                words.append(token)
            }
        }
        return block
    }

    private static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quote: Character?
        var comment = false
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        for character in text {
            if comment {
                if character == "\n" { comment = false }
                continue
            }
            if let open = quote {
                if character == open { quote = nil; tokens.append(current); current = "" } else { current.append(character) }
                continue
            }
            switch character {
            case "#" where current.isEmpty: comment = true
            case "'" where current.isEmpty, "\"" where current.isEmpty: quote = character
            case " ", "\n", "\t": flush()
            case ";", "{", "}":
                flush()
                tokens.append(String(character))
            default: current.append(character)
            }
        }
        flush()
        return tokens
    }

    func values(_ name: String) -> [[String]] { directives.filter { $0.name == name }.map(\.arguments) }
    func blocks(_ name: String) -> [NginxSyntax] { children.filter { $0.name == name } }
    func block(_ name: String, _ arguments: String...) -> NginxSyntax? {
        children.first { $0.name == name && (arguments.isEmpty || $0.arguments == arguments) }
    }
}
