#version 460
// Appends this frame's applied and target EV to the HUD's exposure plot ring, on the GPU: the plot
// never needs a readback; then indexes the ring by time for the compute HUD. One workgroup.
//
//   set 0, binding 0: storage buffer, the exposure record (offsets RECORD_EV, RECORD_TARGET_EV and
//                     RECORD_VALID come as defines from ExposureShaderLayout).
//   set 0, binding 1: storage buffer, the plot ring: uint head, count, capacity, unused, then
//                     `capacity` entries {time, ev, target, 0}, then PLOT_BINS + 2 bins (below).
//                     Its first use must pass reset.
//   push constants: float now (scene seconds), float interval (seconds between kept points),
//                   uint capacity, uint reset (non-zero: empty the ring first; it may hold garbage).
//   PLOT_SPAN (seconds the plot shows) and PLOT_BINS (a multiple of the workgroup's 256) come as defines.
//
// The newest entry keeps being overwritten until it is `interval` newer than the one before it, so
// the ring spans capacity x interval seconds at any frame rate. Time going backwards (a restarted
// clock) clears the ring, so times never decrease from the oldest entry to the newest.
//
// The bins: the window [now - span, now] cut into PLOT_BINS equal parts; bin b (0..PLOT_BINS) starts at
// time now - span + b x span / PLOT_BINS (bin PLOT_BINS at now) and bin PLOT_BINS + 1 is a sentinel.
// Bin b holds {start, low, high, 0}: start (uint bits) the number of entries, oldest first, older than
// its start time (the sentinel: all entries); low and high the least and greatest EV, applied or
// target, of the entries from the one before its first to the one after its last (so every segment
// that reaches into the bin), or -/+3e38 when one of those is NaN. hud.comp reads a tile's entries
// and vertical extent from the bins its columns span instead of searching the ring.
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer Exposure { float values[]; } exposure;
layout(std430, set = 0, binding = 1) buffer Plot { uint head; uint count; uint capacity; uint unused; vec4 entries[]; } plot;

layout(push_constant) uniform Push {
    float now;
    float interval;
    uint capacity;
    uint reset;
} pc;

const uint MAX_CAPACITY = PLOT_CAPACITY;
shared float times[MAX_CAPACITY];
shared vec2 extents[MAX_CAPACITY];   // per entry: least and greatest of its two EVs
shared uint starts[PLOT_BINS + 2u];
shared uint ringState[2];            // head, count after the append

// The append: the first invocation alone (it reads the newest two entries and writes one of them).
void append() {
    uint cap = pc.capacity;
    uint count = pc.reset != 0u ? 0u : min(plot.count, cap);
    uint head = pc.reset != 0u ? 0u : plot.head % cap;
    plot.capacity = cap;
    if (exposure.values[RECORD_VALID] != 0.0) {   // else no measurement yet: nothing to plot
        if (count > 0u) {
            float newest = plot.entries[(head + cap - 1u) % cap].x;
            if (pc.now < newest) {
                count = 0u;
                head = 0u;
            }
        }
        uint slot = head;
        if (count >= 2u) {
            float previous = plot.entries[(head + cap - 2u) % cap].x;
            if (pc.now - previous < pc.interval) {
                slot = (head + cap - 1u) % cap;   // too close to the one before: replace the newest point
            }
        }
        plot.entries[slot] = vec4(pc.now, exposure.values[RECORD_EV], exposure.values[RECORD_TARGET_EV], 0.0);
        if (slot == head) {
            head = (head + 1u) % cap;
            count = min(count + 1u, cap);
        }
    }
    plot.head = head;
    plot.count = count;
    ringState[0] = head;
    ringState[1] = count;
}

void main() {
    uint lane = gl_LocalInvocationID.x;
    uint cap = min(pc.capacity, MAX_CAPACITY);
    if (lane == 0u) {
        append();
    }
    memoryBarrierBuffer();
    barrier();
    uint head = ringState[0], count = ringState[1];
    uint oldest = (head + cap - count) % cap;
    for (uint k = lane; k < count; k += gl_WorkGroupSize.x) {
        vec4 e = plot.entries[(oldest + k) % cap];
        times[k] = e.x;
        bool unordered = isnan(e.y) || isnan(e.z);
        extents[k] = unordered ? vec2(-3.0e38, 3.0e38) : vec2(min(e.y, e.z), max(e.y, e.z));
    }
    barrier();
    // Each bin's start: the entries older than its start time (times never decrease: a binary search).
    float start = pc.now - PLOT_SPAN;
    for (uint b = lane; b <= PLOT_BINS; b += gl_WorkGroupSize.x) {
        float t = b == PLOT_BINS ? pc.now : start + float(b) * (PLOT_SPAN / float(PLOT_BINS));
        uint lo = 0u, hi = count;   // the answer lies in [lo, hi]
        while (lo < hi) {
            uint mid = (lo + hi) / 2u;
            if (times[mid] < t) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        starts[b] = lo;
    }
    if (lane == 0u) {
        starts[PLOT_BINS + 1u] = count;
    }
    barrier();
    for (uint b = lane; b <= PLOT_BINS + 1u; b += gl_WorkGroupSize.x) {
        vec2 ext = vec2(3.0e38, -3.0e38);
        if (count > 0u) {
            uint from = starts[b] > 0u ? starts[b] - 1u : 0u;
            uint to = b <= PLOT_BINS ? min(starts[b + 1u], count - 1u) : count - 1u;
            for (uint k = from; k <= to; k++) {
                ext = vec2(min(ext.x, extents[k].x), max(ext.y, extents[k].y));
            }
        }
        plot.entries[cap + b] = vec4(uintBitsToFloat(starts[b]), ext, 0.0);
    }
}
