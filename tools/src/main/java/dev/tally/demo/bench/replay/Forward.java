package dev.tally.demo.bench.replay;

import static org.lwjgl.system.JNI.*;

/**
 * Forwards a captured command to the driver's function at {@code fn}, with the caller's own arguments
 * ({@code a}: after the command buffer, or the device for a host call, as read from the C call). LWJGL's bindings cannot be used here:
 * while capturing, they dispatch to the capture itself.
 */
final class Forward {
    private Forward() {
    }

    static void call(StreamOp op, long cmd, long[] a, long fn) {
        switch (op) {
            case PIPELINE_BARRIER_2, BEGIN_RENDERING, BEGIN_LABEL -> callPPV(cmd, a[0], fn);
            case BIND_PIPELINE -> callPJV(cmd, (int) a[0], a[1], fn);
            case BIND_DESCRIPTOR_SETS -> callPJPPV(cmd, (int) a[0], a[1], (int) a[2], (int) a[3], a[4], (int) a[5], a[6], fn);
            case PUSH_CONSTANTS -> callPJPV(cmd, a[0], (int) a[1], (int) a[2], (int) a[3], a[4], fn);
            case DISPATCH -> callPV(cmd, (int) a[0], (int) a[1], (int) a[2], fn);
            case DRAW -> callPV(cmd, (int) a[0], (int) a[1], (int) a[2], (int) a[3], fn);
            case SET_VIEWPORT, SET_SCISSOR -> callPPV(cmd, (int) a[0], (int) a[1], a[2], fn);
            case END_RENDERING, END_LABEL -> callPV(cmd, fn);
            case COPY_BUFFER -> callPJJPV(cmd, a[0], a[1], (int) a[2], a[3], fn);
            case COPY_IMAGE_TO_BUFFER -> callPJJPV(cmd, a[0], (int) a[1], a[2], (int) a[3], a[4], fn);
            case COPY_BUFFER_TO_IMAGE -> callPJJPV(cmd, a[0], a[1], (int) a[2], (int) a[3], a[4], fn);
            case FILL_BUFFER -> callPJJJV(cmd, a[0], a[1], a[2], (int) a[3], fn);
            case UPDATE_BUFFER -> callPJJJPV(cmd, a[0], a[1], a[2], a[3], fn);
            case RESET_QUERY_POOL, HOST_RESET_QUERY_POOL -> callPJV(cmd, a[0], (int) a[1], (int) a[2], fn);
            case WRITE_TIMESTAMP_2 -> callPJJV(cmd, a[0], a[1], (int) a[2], fn);
            case CLEAR_COLOR_IMAGE -> callPJPPV(cmd, a[0], (int) a[1], a[2], (int) a[3], a[4], fn);
        }
    }
}
