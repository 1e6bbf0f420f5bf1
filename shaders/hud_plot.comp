#version 460
// Appends this frame's applied and target EV to the HUD's exposure plot ring, on the GPU: the plot
// never needs a readback. One invocation.
//
//   set 0, binding 0: storage buffer, the exposure record (offsets RECORD_EV, RECORD_TARGET_EV and
//                     RECORD_VALID come as defines from ExposureShaderLayout).
//   set 0, binding 1: storage buffer, the plot ring: uint head, count, capacity, unused, then
//                     `capacity` entries {time, ev, target, 0}. Its first use must pass reset.
//   push constants: float now (scene seconds), float interval (seconds between kept points),
//                   uint capacity, uint reset (non-zero: empty the ring first; it may hold garbage).
//
// The newest entry keeps being overwritten until it is `interval` newer than the one before it, so
// the ring spans capacity x interval seconds at any frame rate. Time going backwards (a restarted
// clock) clears the ring.
layout(local_size_x = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer Exposure { float values[]; } exposure;
layout(std430, set = 0, binding = 1) buffer Plot { uint head; uint count; uint capacity; uint unused; vec4 entries[]; } plot;

layout(push_constant) uniform Push {
    float now;
    float interval;
    uint capacity;
    uint reset;
} pc;

void main() {
    uint cap = pc.capacity;
    uint count = pc.reset != 0u ? 0u : min(plot.count, cap);
    uint head = pc.reset != 0u ? 0u : plot.head % cap;
    plot.capacity = cap;
    if (exposure.values[RECORD_VALID] == 0.0) {
        plot.head = head;
        plot.count = count;
        return;   // no measurement yet: nothing to plot
    }
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
    plot.head = head;
    plot.count = count;
}
