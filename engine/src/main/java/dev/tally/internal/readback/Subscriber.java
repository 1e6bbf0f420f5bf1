package dev.tally.internal.readback;

import dev.tally.readback.SampleListener;

import dev.tally.readback.Subscription;

import dev.tally.readback.Delivery;

import java.nio.ByteBuffer;

/**
 * A listener of a ring's every-frame samples, optionally with a caller-owned destination that the ring
 * fills before calling it (floats: the payload converted; bytes: the raw payload from index 0). Close to
 * stop hearing.
 */
public final class Subscriber implements Subscription {
    private final SampleHandOut owner;
    private final SampleListener listener;
    private final float[] floats;
    private final ByteBuffer bytes;

    Subscriber(SampleHandOut owner, SampleListener listener, float[] floats, ByteBuffer bytes) {
        this.owner = owner;
        this.listener = listener;
        this.floats = floats;
        this.bytes = bytes;
    }

    /** The floats {@code onSample(float[])} was given room for, or -1 when it fills none. */
    int floatRoom() {
        return floats == null ? -1 : floats.length;
    }

    /** The bytes {@code onSample(ByteBuffer)} was given room for, or -1 when it fills none. */
    int byteRoom() {
        return bytes == null ? -1 : bytes.capacity();
    }

    void deliver(DeliveredSlot d) {
        if (floats != null) {
            d.copyTo(floats);
        }
        if (bytes != null) {
            bytes.clear();
            d.copyTo(bytes);
            bytes.flip();
        }
        if (listener != null) {
            listener.delivered(d);
        }
    }

    @Override
    public void close() {
        owner.unsubscribe(this);
    }
}
