import ReelFeatures
import ReelModels
import SwiftUI

/// Search as you type (the model waits 250 ms and cancels what is in flight); Return searches
/// at once and remembers the text. With no text, the recent searches.
struct SearchView: View {
    let search: SearchModel

    var body: some View {
        Group {
            if let results = search.results {
                ScrollView {
                    if results.hasLoaded, results.items.isEmpty {
                        ContentUnavailableView.search(text: search.resultsQuery ?? search.text)
                    } else if !results.hasLoaded, let error = results.error {
                        ErrorState(error: error) { await results.refresh() }
                    } else {
                        PosterGrid(list: results)
                    }
                }
            } else {
                recent
            }
        }
        .navigationTitle("Search")
        .searchable(text: Binding(get: { search.text }, set: { search.textChanged($0) }), prompt: "Captions, tags, people")
        .onSubmit(of: .search) { Task { await search.submit() } }
    }

    @ViewBuilder
    private var recent: some View {
        if search.recent.isEmpty {
            ContentUnavailableView("Search your library", systemImage: "magnifyingglass", description: Text("Captions, #tags and uploaders."))
        } else {
            List {
                Section {
                    ForEach(search.recent, id: \.self) { text in
                        Button { Task { await search.search(text) } } label: {
                            Label(text, systemImage: "clock.arrow.circlepath")
                        }
                        .foregroundStyle(.primary)
                    }
                    .onDelete { offsets in
                        for text in offsets.map({ search.recent[$0] }) { search.removeRecent(text) }
                    }
                } header: {
                    HStack {
                        Text("Recent")
                        Spacer()
                        Button("Clear") { search.clearRecent() }.font(.footnote)
                    }
                }
            }
        }
    }
}
