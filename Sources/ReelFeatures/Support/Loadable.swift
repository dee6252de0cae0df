/// A screen's content as it arrives: nothing asked yet, on its way, there, or failed. Views
/// switch over it; a refresh keeps showing what was loaded (`value`) while the next one loads.
public enum Loadable<Value: Sendable>: Sendable {
    case idle
    case loading
    case loaded(Value)
    case failed(ScreenError)

    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    public var error: ScreenError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }
}

extension Loadable: Equatable where Value: Equatable {}
