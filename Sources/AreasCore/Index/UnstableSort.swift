/// An in-place quicksort for small arrays of distinct keys, such as a query's neighbours.
///
/// The standard library's sort is stable, which costs a scratch buffer and merge passes that
/// dominate a radius query returning a hundred neighbours. Neighbours are ordered by distance
/// and then by payload, so no two compare equal and stability buys nothing. Median-of-three
/// pivots, insertion sort below 16 elements, and the standard sort past a recursion budget,
/// so no input can make it quadratic.
enum UnstableSort {
    @usableFromInline
    static func quicksort<Element: Comparable>(_ a: UnsafeMutablePointer<Element>, _ low: Int, _ high: Int, budget: inout Int) {
        var low = low
        var high = high
        while high - low > 16 {
            if budget == 0 {
                var rest = UnsafeMutableBufferPointer(start: a + low, count: high - low)
                rest.sort()
                return
            }
            budget -= 1
            let mid = low + (high - low) / 2
            if a[mid] < a[low] { swap(&a[mid], &a[low]) }
            if a[high - 1] < a[mid] {
                swap(&a[high - 1], &a[mid])
                if a[mid] < a[low] { swap(&a[mid], &a[low]) }
            }
            let pivot = a[mid]
            var i = low
            var j = high - 1
            while true {
                while a[i] < pivot { i += 1 }
                while pivot < a[j] { j -= 1 }
                if i >= j { break }
                swap(&a[i], &a[j])
                i += 1
                j -= 1
            }
            // [low, j] ≤ pivot ≤ [j + 1, high): recurse into the smaller side, loop on the larger.
            if j + 1 - low < high - j - 1 {
                quicksort(a, low, j + 1, budget: &budget)
                low = j + 1
            } else {
                quicksort(a, j + 1, high, budget: &budget)
                high = j + 1
            }
        }
        insertionSort(a, low, high)
    }

    /// Sorts `a[low..<high]` by insertion: linear in the length plus the number of elements out
    /// of order, so cheap on short runs and on runs that are nearly sorted already.
    @usableFromInline
    static func insertionSort<Element: Comparable>(_ a: UnsafeMutablePointer<Element>, _ low: Int, _ high: Int) {
        var i = low + 1
        while i < high {
            let element = a[i]
            var j = i
            while j > low && element < a[j - 1] {
                a[j] = a[j - 1]
                j -= 1
            }
            a[j] = element
            i += 1
        }
    }
}
