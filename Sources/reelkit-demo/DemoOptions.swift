import Foundation

/// `reelkit-demo --url URL (--key KEY | --key-file FILE) [--items N] [--page-size N] [--flick-at N] [--cache-dir DIR]`
struct DemoOptions {
    var baseURL = URL(string: "http://127.0.0.1:8080")!
    var apiKey: String?
    var items = 12
    var pageSize = 5
    /// At this swipe the "user" flicks past two items at once (0 = never).
    var flickAt = 6
    var cacheDirectory: URL?

    static let usage = """
    usage: reelkit-demo --url URL (--key KEY | --key-file FILE) [--items N] [--page-size N] [--flick-at N] [--cache-dir DIR]
    Walks the feed through ReelKit as an app would and prints what a user would have seen.
    """

    static func parse(_ arguments: [String]) throws -> DemoOptions {
        var options = DemoOptions()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw DemoError("\(flag) needs a value") }
            return next
        }
        func number(_ flag: String) throws -> Int {
            guard let parsed = Int(try value(flag)), parsed >= 0 else { throw DemoError("\(flag) needs a non-negative number") }
            return parsed
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--url":
                guard let url = URL(string: try value(flag)), url.scheme != nil else { throw DemoError("--url needs an absolute URL") }
                options.baseURL = url
            case "--key": options.apiKey = try value(flag)
            case "--key-file":
                let path = try value(flag)
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw DemoError("cannot read \(path)") }
                options.apiKey = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "--items": options.items = max(1, try number(flag))
            case "--page-size": options.pageSize = min(50, max(1, try number(flag)))
            case "--flick-at": options.flickAt = try number(flag)
            case "--cache-dir": options.cacheDirectory = URL(fileURLWithPath: try value(flag))
            case "-h", "--help": throw DemoError(usage)
            default: throw DemoError("unknown argument \(flag)\n\(usage)")
            }
        }
        guard options.apiKey?.isEmpty == false else { throw DemoError("an API key is required (--key or --key-file)\n\(usage)") }
        return options
    }
}

struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
