/// A first-in, first-out queue on an array, for deadlines that arrive in time order.
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var first: Element? { head < storage.count ? storage[head] : nil }

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Replaces each queued element by `transform`'s result, dropping those it maps to `nil`.
    mutating func rewrite(_ transform: (Element) -> Element?) {
        storage = storage[head...].compactMap(transform)
        head = 0
    }

    mutating func removeFirst() {
        head += 1
        if head >= 4096, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
