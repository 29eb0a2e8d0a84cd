import Foundation

/// A min-heap of scheduled chain events, ordered by date, then account, then group, so that ``Sandbox/advance(by:)``
/// handles thousands of subscriptions without rescanning them for every renewal.
struct ScheduleQueue {
    struct Entry {
        var date: Date
        var account: String
        var group: String

        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            if a.date != b.date { return a.date < b.date }
            if a.account != b.account { return a.account < b.account }
            return a.group < b.group
        }
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Entry.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count && Entry.precedes(heap[left], heap[first]) { first = left }
            if right < heap.count && Entry.precedes(heap[right], heap[first]) { first = right }
            if first == parent { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return top
    }
}
