/// A static 2-d tree over points given as parallel x and y arrays: built once in O(n log n), then
/// answers "which points lie in this box" and "which lie within r of this point" without allocating
/// per node. Points are kept in leaf buckets of `bucketSize`, sorted alternately by x and y.
struct KDTree: Sendable {
    static let bucketSize = 16

    /// Point indices (into the arrays the tree was built from) in tree order.
    private(set) var ids: [Int32]
    /// Coordinates in tree order, interleaved x, y.
    private var coords: [Double]

    var count: Int { ids.count }

    init(x: [Double], y: [Double]) {
        precondition(x.count == y.count)
        var ids = [Int32](repeating: 0, count: x.count)
        var coords = [Double](repeating: 0, count: 2 * x.count)
        for index in x.indices {
            ids[index] = Int32(index)
            coords[2 * index] = x[index]
            coords[2 * index + 1] = y[index]
        }
        if x.count > Self.bucketSize {
            ids.withUnsafeMutableBufferPointer { ids in
                coords.withUnsafeMutableBufferPointer { coords in
                    var sorter = Sorter(ids: ids.baseAddress!, coords: coords.baseAddress!)
                    sorter.sort(0, x.count - 1, axis: 0)
                }
            }
        }
        self.ids = ids
        self.coords = coords
    }

    /// Sorts in place through raw pointers: the build swaps millions of times.
    private struct Sorter {
        let ids: UnsafeMutablePointer<Int32>
        let coords: UnsafeMutablePointer<Double>

        /// Orders ids[left...right] so that the median on `axis` sits in the middle, smaller ones
        /// before it, larger after; then the halves on the other axis.
        mutating func sort(_ left: Int, _ right: Int, axis: Int) {
            if right - left <= KDTree.bucketSize { return }
            let middle = (left + right) >> 1
            select(middle, left, right, axis: axis)
            sort(left, middle - 1, axis: 1 - axis)
            sort(middle + 1, right, axis: 1 - axis)
        }

        /// Floyd–Rivest selection: the k-th smallest on `axis` into position k.
        mutating func select(_ k: Int, _ left: Int, _ right: Int, axis: Int) {
            var left = left, right = right
            while right > left {
                if right - left > 600 {
                    let n = Double(right - left + 1)
                    let m = Double(k - left + 1)
                    let z = log(n)
                    let s = 0.5 * exp(2 * z / 3)
                    let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                    let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                    let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                    select(k, newLeft, newRight, axis: axis)
                }
                let pivot = coords[2 * k + axis]
                var i = left, j = right
                swapAt(left, k)
                if coords[2 * right + axis] > pivot { swapAt(left, right) }
                while i < j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                    while coords[2 * i + axis] < pivot { i += 1 }
                    while coords[2 * j + axis] > pivot { j -= 1 }
                }
                if coords[2 * left + axis] == pivot {
                    swapAt(left, j)
                } else {
                    j += 1
                    swapAt(j, right)
                }
                if j <= k { left = j + 1 }
                if k <= j { right = j - 1 }
            }
        }

        private func swapAt(_ i: Int, _ j: Int) {
            swap(&ids[i], &ids[j])
            swap(&coords[2 * i], &coords[2 * j])
            swap(&coords[2 * i + 1], &coords[2 * j + 1])
        }
    }

    /// Calls `visit` with the index of every point inside the box (edges included).
    func forEach(inMinX minX: Double, minY: Double, maxX: Double, maxY: Double, _ visit: (Int) -> Void) {
        if ids.isEmpty { return }
        var stack: [(Int, Int, Int)] = [(0, ids.count - 1, 0)]
        while let (left, right, axis) = stack.popLast() {
            if right - left <= Self.bucketSize {
                for i in left...right {
                    let x = coords[2 * i], y = coords[2 * i + 1]
                    if x >= minX && x <= maxX && y >= minY && y <= maxY { visit(Int(ids[i])) }
                }
                continue
            }
            let middle = (left + right) >> 1
            let x = coords[2 * middle], y = coords[2 * middle + 1]
            if x >= minX && x <= maxX && y >= minY && y <= maxY { visit(Int(ids[middle])) }
            let value = axis == 0 ? x : y
            if (axis == 0 ? minX : minY) <= value { stack.append((left, middle - 1, 1 - axis)) }
            if (axis == 0 ? maxX : maxY) >= value { stack.append((middle + 1, right, 1 - axis)) }
        }
    }

    /// Appends to `found` the index of every point within `radius` of (x, y). `stack` is scratch
    /// space, passed in so a loop of queries allocates nothing.
    func append(within radius: Double, ofX qx: Double, y qy: Double, to found: inout [Int32],
                stack: inout [Int]) {
        let count = ids.count
        if count == 0 { return }
        let r2 = radius * radius
        // Depth is about log2(count / bucketSize) and each level pushes at most two nodes.
        if stack.count < 192 { stack = [Int](repeating: 0, count: 192) }
        ids.withUnsafeBufferPointer { idsBuffer in
            coords.withUnsafeBufferPointer { coordsBuffer in
                stack.withUnsafeMutableBufferPointer { stackBuffer in
                    let ids = idsBuffer.baseAddress!, coords = coordsBuffer.baseAddress!
                    let nodes = stackBuffer.baseAddress!
                    nodes[0] = 0; nodes[1] = count - 1; nodes[2] = 0
                    var top = 3
                    while top > 0 {
                        top -= 3
                        let left = nodes[top], right = nodes[top + 1], axis = nodes[top + 2]
                        if right - left <= Self.bucketSize {
                            var i = left
                            while i <= right {
                                let dx = coords[2 * i] - qx, dy = coords[2 * i + 1] - qy
                                if dx * dx + dy * dy <= r2 { found.append(ids[i]) }
                                i += 1
                            }
                            continue
                        }
                        let middle = (left + right) >> 1
                        let x = coords[2 * middle], y = coords[2 * middle + 1]
                        let dx = x - qx, dy = y - qy
                        if dx * dx + dy * dy <= r2 { found.append(ids[middle]) }
                        let value = axis == 0 ? x : y
                        let query = axis == 0 ? qx : qy
                        if query - radius <= value {
                            nodes[top] = left; nodes[top + 1] = middle - 1; nodes[top + 2] = 1 - axis
                            top += 3
                        }
                        if query + radius >= value {
                            nodes[top] = middle + 1; nodes[top + 1] = right; nodes[top + 2] = 1 - axis
                            top += 3
                        }
                    }
                }
            }
        }
    }

    /// Calls `visit` with the index of every point within `radius` of (x, y).
    func forEach(within radius: Double, ofX qx: Double, y qy: Double, _ visit: (Int) -> Void) {
        var found: [Int32] = [], stack: [Int] = []
        append(within: radius, ofX: qx, y: qy, to: &found, stack: &stack)
        for index in found { visit(Int(index)) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
