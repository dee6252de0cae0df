import ReelFeatures
import ReelModels
import SwiftUI

/// Browse (the All grid): a sort menu (the sort that is on flips its direction) and a
/// filters sheet; every change starts the grid over.
struct BrowseView: View {
    @State private var model: BrowseModel
    @State private var showsFilters = false

    init(model: @autoclosure () -> BrowseModel) {
        _model = State(wrappedValue: model())
    }

    var body: some View {
        ScrollView {
            if model.list.hasLoaded, model.items.isEmpty {
                ContentUnavailableView("No posts match", systemImage: "line.3.horizontal.decrease.circle")
                    .padding(.top, 80)
            } else {
                PosterGrid(list: model.list)
            }
        }
        .navigationTitle("Browse")
        .navigationBarTitleDisplayMode(.inline)
        .toolbar {
            Menu {
                ForEach(BrowseSort.allCases, id: \.self) { sort in
                    Button { Task { await model.sort(by: sort) } } label: {
                        if model.request.sort == sort {
                            Label(sort.title, systemImage: model.isDescending ? "arrow.down" : "arrow.up")
                        } else {
                            Text(sort.title)
                        }
                    }
                }
            } label: { Label("Sort", systemImage: "arrow.up.arrow.down") }
            Button { showsFilters = true } label: {
                Text(model.activeFilterCount > 0 ? "Filters · \(model.activeFilterCount)" : "Filters")
            }
        }
        .sheet(isPresented: $showsFilters) {
            BrowseFilters(model: model).presentationDetents([.medium, .large])
        }
        .refreshable { await model.list.refresh() }
        .task { await model.load() }
    }
}

/// Kinds, favorites, minimum stars, seen or not, and tags; Clear keeps the sort.
struct BrowseFilters: View {
    let model: BrowseModel
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            Form {
                Section("Kind") {
                    ForEach(PostKind.allCases, id: \.self) { kind in
                        Toggle(kind.rawValue.capitalized, isOn: binding(model.request.kinds.contains(kind)) { _ in await model.toggleKind(kind) })
                    }
                }
                Section {
                    Toggle("Favorites only", isOn: binding(model.request.favoritesOnly) { await model.setFavoritesOnly($0) })
                    Picker("At least", selection: binding(model.request.minRating ?? 0) { await model.setMinRating($0 == 0 ? nil : $0) }) {
                        Text("Any rating").tag(0)
                        ForEach(1...5, id: \.self) { Text(String(repeating: "★", count: $0)).tag($0) }
                    }
                    Picker("Seen", selection: binding(model.request.seen) { await model.setSeen($0) }) {
                        Text("Seen or not").tag(Bool?.none)
                        Text("Seen").tag(Bool?.some(true))
                        Text("Not seen").tag(Bool?.some(false))
                    }
                }
                if !model.tags.isEmpty {
                    Section("Tags") {
                        ForEach(model.tags, id: \.name) { tag in
                            Toggle("#\(tag.name) (\(tag.count))", isOn: binding(model.request.tags.contains(tag.name)) { _ in await model.toggleTag(tag.name) })
                        }
                    }
                }
            }
            .navigationTitle("Filters")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button("Clear") { Task { await model.clearFilters() } } }
                ToolbarItem(placement: .confirmationAction) { Button("Done") { dismiss() } }
            }
        }
    }

    /// A control bound to the model's request: it shows the model's value and sends the intent.
    private func binding<Value>(_ value: Value, _ send: @escaping (Value) async -> Void) -> Binding<Value> {
        Binding(get: { value }, set: { new in Task { await send(new) } })
    }
}

extension BrowseSort {
    var title: String {
        switch self {
        case .title: "Title"
        case .newest: "Date added"
        case .posted: "Date posted"
        case .duration: "Length"
        case .rating: "Your rating"
        }
    }
}
