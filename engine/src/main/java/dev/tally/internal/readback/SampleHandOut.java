package dev.tally.internal.readback;

import dev.tally.readback.ReadbackRing;

import dev.tally.readback.SampleListener;

import dev.tally.readback.ReadbackRequest;

import dev.tally.readback.Subscription;

import dev.tally.readback.Delivery;

import dev.tally.readback.TimeSource;

import dev.tally.readback.Sample;

import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CPU half of a readback ring: given a completed slot's host memory, checks the GPU-written sequence
 * number, fills the provenance, hands the sample to one-shot requests or to subscribers (into their own
 * arrays) and keeps it for {@link #latest()}; counts lag, age, stale and rejected samples. Each ring owns
 * one. Nothing here allocates per sample (only {@link #latest()} copies, once per new sample, when polled).
 * Public so that benchmarks can drive it on plain host memory.
 */
public final class SampleHandOut {
    private final String ringName;
    private final int maxAgeFrames;
    private final TimeSource timeSource;
    private final DeliveredSlot delivery = new DeliveredSlot();
    private final List<Subscriber> subscriptions = new ArrayList<>();
    private final AgeWindow ages = new AgeWindow();
    // The newest every-frame sample, copied out of its slot: latest() makes a Sample of it on demand.
    private final ByteBuffer latestPayload;
    private final SlotLayout latestLayout = new SlotLayout();
    private long latestFrame = -1;
    private long latestValue;
    private long latestDeliveredAt;
    private long latestCompleted;
    private double latestAge;
    private boolean latestStale;
    private Sample latestSample;
    private long samples;
    private long stale;
    private long rejected;
    private long oneShots;
    private long lagMin = Long.MAX_VALUE;
    private long lagMax;
    private boolean closed;

    /** @param payloadCapacity the largest payload a slot can hold, padding included */
    public SampleHandOut(String ringName, long payloadCapacity, int maxAgeFrames, TimeSource timeSource) {
        this.ringName = ringName;
        this.maxAgeFrames = maxAgeFrames;
        this.timeSource = timeSource;
        this.latestPayload = MemoryUtil.memAlloc((int) payloadCapacity);
    }

    /**
     * Hands out the slot at {@code slotAddress} (header, then payload laid out as {@code layout}), written by
     * frame {@code frame} and delivered at frame {@code deliveredAt}; {@code request} non-null for a one-shot.
     * {@code slotWords}, where given, views the slot's memory from {@code slotAddress} as 32-bit words (made once per
     * slot), so that buffer regions reach a subscriber's array in one bulk copy each.
     *
     * @return false when the sample was rejected: its sequence number is not its frame's
     */
    public boolean deliver(long slotAddress, FloatBuffer slotWords, SlotLayout layout, long frame, long timelineValue, long deliveredAt,
                           long completedNanos, long nowNanos, OneShotRequest request) {
        int sequence = MemoryUtil.memGetInt(slotAddress);
        if (sequence != (int) frame) {
            // The host does not see what this frame's GPU work wrote (a missing barrier, a reused slot):
            // what it sees belongs to another frame and must not be handed out under this frame's name.
            rejected++;
            if (request != null) {
                request.reject("readback ring '" + ringName + "': frame " + frame + "'s one-shot slot holds sequence " + sequence);
            }
            return false;
        }
        long lag = deliveredAt - frame;
        boolean isStale = lag > maxAgeFrames;
        double age = (nowNanos - completedNanos) / 1e6;
        long payload = slotAddress + ReadbackRingNode.HEADER_BYTES;
        delivery.set(frame, timelineValue, deliveredAt, completedNanos, timeSource, age, isStale, request != null, payload, layout, slotWords,
                ReadbackRingNode.HEADER_BYTES / 4);
        samples++;
        if (isStale) {
            stale++;
        }
        lagMin = Math.min(lagMin, lag);
        lagMax = Math.max(lagMax, lag);
        ages.add(age);
        try {
            if (request != null) {
                oneShots++;
                request.deliver(delivery);
            } else {
                keepLatest(payload, layout, frame, timelineValue, deliveredAt, completedNanos, age, isStale);
                for (int i = 0; i < subscriptions.size(); i++) {
                    subscriptions.get(i).deliver(delivery);
                }
            }
        } finally {
            delivery.invalidate();
        }
        return true;
    }

    private void keepLatest(long payload, SlotLayout layout, long frame, long value, long deliveredAt, long completed, double age, boolean isStale) {
        MemoryUtil.memCopy(payload, MemoryUtil.memAddress(latestPayload), layout.payloadBytes());
        latestLayout.copyFrom(layout);
        latestFrame = frame;
        latestValue = value;
        latestDeliveredAt = deliveredAt;
        latestCompleted = completed;
        latestAge = age;
        latestStale = isStale;
        latestSample = null;
    }

    /** The newest every-frame sample, or empty before the first one (allocates a copy once per new sample). */
    public Optional<Sample> latest() {
        if (latestFrame < 0) {
            return Optional.empty();
        }
        if (latestSample == null) {
            int n = (int) latestLayout.payloadBytes();
            byte[] bytes = new byte[n];
            latestPayload.get(0, bytes, 0, n);   // absolute bulk read: no view buffer
            float[] floats = new float[latestLayout.floatCount()];
            latestLayout.toFloats(MemoryUtil.memAddress(latestPayload), floats);
            latestSample = new Sample(latestFrame, latestValue, latestDeliveredAt, latestCompleted, timeSource, latestAge, latestStale, bytes, floats);
        }
        return Optional.of(latestSample);
    }

    /** The last every-frame sample's lag, 0 before the first. */
    long lastLag() {
        return latestFrame < 0 ? 0 : latestDeliveredAt - latestFrame;
    }

    /**
     * Checks, where a capture is declared, that every subscriber's destination holds a sample of {@code floats} floats and
     * {@code bytes} bytes: found at delivery, the mistake would fail a later frame's begin, far from its cause.
     */
    void checkRoom(String ring, int floats, long bytes) {
        for (int i = 0; i < subscriptions.size(); i++) {   // indexed: no iterator
            Subscriber s = subscriptions.get(i);
            if (s.floatRoom() >= 0 && s.floatRoom() < floats) {
                throw new IllegalArgumentException("readback ring '" + ring + "': this capture is " + floats + " floats, and a subscriber's"
                        + " onSample(float[]) destination holds " + s.floatRoom() + "; give it at least " + floats);
            }
            if (s.byteRoom() >= 0 && s.byteRoom() < bytes) {
                throw new IllegalArgumentException("readback ring '" + ring + "': this capture is " + bytes + " bytes, and a subscriber's"
                        + " onSample(ByteBuffer) destination holds " + s.byteRoom() + "; give it at least " + bytes);
            }
        }
    }

    public Subscriber subscribe(SampleListener listener, float[] floats, ByteBuffer bytes) {
        Subscriber s = new Subscriber(this, listener, floats, bytes);
        subscriptions.add(s);
        return s;
    }

    void unsubscribe(Subscriber s) {
        subscriptions.remove(s);
    }

    public long samples() { return samples; }
    public long stale() { return stale; }
    public long rejected() { return rejected; }
    public long oneShots() { return oneShots; }
    public long lagMin() { return samples == 0 ? 0 : lagMin; }
    public long lagMax() { return lagMax; }
    public double ageMillisMedian() { return ages.median(); }
    public int maxAgeFrames() { return maxAgeFrames; }
    public TimeSource timeSource() { return timeSource; }

    /** Frees the host copy of the latest payload. */
    public void close() {
        if (!closed) {
            closed = true;
            MemoryUtil.memFree(latestPayload);
        }
    }
}
