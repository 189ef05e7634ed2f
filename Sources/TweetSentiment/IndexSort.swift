/// In-place unstable sort of feature indices: quicksort with median-of-three
/// pivots, insertion sort below 24 elements, recursion on the smaller side
/// (Sedgewick 1978, "Implementing Quicksort Programs"). For plain integers the
/// result equals `sort()`'s; it avoids the stable merge sort's buffer and
/// closure calls on the featurizer's hot path. O(n log n) expected, O(log n) stack.
enum IndexSort {
    /// Sorts `a` ascending.
    static func sort(_ a: inout [Int32]) {
        a.withUnsafeMutableBufferPointer { b in
            guard b.count > 1 else { return }
            quicksort(b, 0, b.count - 1)
        }
    }

    private static func quicksort(_ a: UnsafeMutableBufferPointer<Int32>, _ low: Int, _ high: Int) {
        var lo = low, hi = high
        while hi - lo >= 24 {
            let mid = lo + (hi - lo) / 2
            if a[mid] < a[lo] { a.swapAt(mid, lo) }
            if a[hi] < a[lo] { a.swapAt(hi, lo) }
            if a[hi] < a[mid] { a.swapAt(hi, mid) }
            let pivot = a[mid]
            var i = lo, j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            // Recurse on the smaller part, loop on the larger.
            if j - lo < hi - i {
                if lo < j { quicksort(a, lo, j) }
                lo = i
            } else {
                if i < hi { quicksort(a, i, hi) }
                hi = j
            }
        }
        var k = lo + 1
        while k <= hi {
            let x = a[k]
            var m = k - 1
            while m >= lo, a[m] > x { a[m + 1] = a[m]; m -= 1 }
            a[m + 1] = x
            k += 1
        }
    }
}
