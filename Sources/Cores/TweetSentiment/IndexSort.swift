/// In-place sort of feature indices. From 64 non-negative elements on: LSD
/// radix sort on 8-bit digits of `x − min` (Knuth, TAOCP vol. 3, §5.2.5), one
/// counting pass per significant byte, passes where every element shares the
/// digit skipped; otherwise quicksort with median-of-three pivots, insertion sort
/// below 24 elements, recursion on the smaller side (Sedgewick 1978,
/// "Implementing Quicksort Programs"). For plain integers the result equals
/// `sort()`'s; it avoids the stable merge sort's buffer and closure calls on the
/// featurizer's hot path. O(n · bytes of the value range) for radix,
/// O(n log n) expected for quicksort; O(n) scratch on the stack or heap.
enum IndexSort {
    /// Sorts `a` ascending.
    static func sort(_ a: inout [Int32]) {
        a.withUnsafeMutableBufferPointer { b in
            guard b.count > 1 else { return }
            if b.count >= radixThreshold, radixSort(b) { return }
            quicksort(b, 0, b.count - 1)
        }
    }

    /// Smallest count sorted by radix sort.
    static let radixThreshold = 64

    /// LSD radix sort of non-negative values; returns false (leaving `a`
    /// untouched) when a value is negative.
    private static func radixSort(_ a: UnsafeMutableBufferPointer<Int32>) -> Bool {
        let n = a.count
        var low = Int32.max
        var high = Int32.min
        for x in a {
            if x < low { low = x }
            if x > high { high = x }
        }
        guard low >= 0 else { return false }
        let range = UInt32(bitPattern: high &- low)
        var passes = 0
        var r = range
        while r > 0 {
            passes += 1
            r >>= 8
        }
        guard passes > 0 else { return true }
        let base = UInt32(bitPattern: low)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: n) { scratch in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { count in
                var source = a
                var target = scratch
                for pass in 0..<passes {
                    let shift = UInt32(8 * pass)
                    count.initialize(repeating: 0)
                    for x in source { count[Int(((UInt32(bitPattern: x) &- base) >> shift) & 0xFF)] += 1 }
                    var sum = 0
                    var skip = false
                    for d in 0..<256 {
                        let c = count[d]
                        if c == n {
                            skip = true
                            break
                        }
                        count[d] = sum
                        sum += c
                    }
                    if skip { continue }
                    for x in source {
                        let d = Int(((UInt32(bitPattern: x) &- base) >> shift) & 0xFF)
                        target[count[d]] = x
                        count[d] += 1
                    }
                    swap(&source, &target)
                }
                if source.baseAddress != a.baseAddress {
                    for k in 0..<n { a[k] = source[k] }
                }
            }
        }
        return true
    }

    private static func quicksort(_ a: UnsafeMutableBufferPointer<Int32>, _ low: Int, _ high: Int) {
        var lo = low
        var hi = high
        while hi - lo >= 24 {
            let mid = lo + (hi - lo) / 2
            if a[mid] < a[lo] { a.swapAt(mid, lo) }
            if a[hi] < a[lo] { a.swapAt(hi, lo) }
            if a[hi] < a[mid] { a.swapAt(hi, mid) }
            let pivot = a[mid]
            var i = lo
            var j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i += 1
                    j -= 1
                }
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
            while m >= lo, a[m] > x {
                a[m + 1] = a[m]
                m -= 1
            }
            a[m + 1] = x
            k += 1
        }
    }
}
