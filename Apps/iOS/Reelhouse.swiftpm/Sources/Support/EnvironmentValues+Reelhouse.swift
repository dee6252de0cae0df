import Foundation
import SwiftUI

extension EnvironmentValues {
    /// The signed-in server: the media paths the models hand out (`/img/…`, `/media/…`) are
    /// resolved against it. Set once by the app entry.
    @Entry var serverURL: URL?
}

extension URL {
    /// A server path resolved against `base` (nil when either is missing).
    static func media(_ path: String?, base: URL?) -> URL? {
        guard let path, let base else { return nil }
        return URL(string: path, relativeTo: base)?.absoluteURL
    }
}
