package dev.tally.internal.graph;

import org.lwjgl.vulkan.VkCommandBuffer;

import java.util.ArrayList;
import java.util.List;

/** Who hears of each frame's beginning, abandonment and submission. */
final class FrameListeners {
    private final List<GraphRuntime.FrameListener> listeners = new ArrayList<>();
    /** The listeners as an array, replaced on every change: iterating it needs no copy, and a listener may remove itself. */
    private GraphRuntime.FrameListener[] snapshot = new GraphRuntime.FrameListener[0];

    void add(GraphRuntime.FrameListener listener) {
        listeners.add(listener);
        snapshot = listeners.toArray(new GraphRuntime.FrameListener[0]);
    }

    void remove(GraphRuntime.FrameListener listener) {
        listeners.remove(listener);
        snapshot = listeners.toArray(new GraphRuntime.FrameListener[0]);
    }

    void begun(long frame, long completed) {
        for (GraphRuntime.FrameListener l : snapshot) {
            l.frameBegun(frame, completed);
        }
    }

    void abandoned(long frame) {
        for (GraphRuntime.FrameListener l : snapshot) {
            l.frameAbandoned(frame);
        }
    }

    void commandsEnding(VkCommandBuffer cmd, long frame) {
        for (GraphRuntime.FrameListener l : snapshot) {
            l.frameCommandsEnding(cmd, frame);
        }
    }

    void submitted(long frame) {
        for (GraphRuntime.FrameListener l : snapshot) {
            l.frameSubmitted(frame);
        }
    }
}
