package dev.tally.demo.app;

import java.io.PrintStream;

/**
 * The demo's once-a-second status line, "frame F  R fps  exposure E EV  total T (frame N, L late)", written digit
 * by digit into a kept builder and handed to the log as ASCII bytes from a kept array: printing it allocates
 * nothing, so the frame loop stays free of garbage in the frames that print it too.
 */
final class StatusLine {
    private final StringBuilder line = new StringBuilder(128);
    private byte[] bytes = new byte[128];

    /** Prints the line for {@code frame} frames in {@code seconds}, with {@code latest}'s exposure (at {@code evIndex}) and total. */
    void print(PrintStream log, long frame, double seconds, LatestReadback latest, int evIndex) {
        StringBuilder b = line;
        b.setLength(0);
        HudLines.fixed(b.append("frame ").append(frame).append("  "), frame / seconds, 1).append(" fps  exposure ");
        if (latest.present()) {
            HudLines.fixed(b, latest.value(evIndex), 2).append(" EV  total ");
            HudLines.fixed(b, latest.value(0), 0).append(" (frame ").append(latest.frame()).append(", ").append(latest.lag()).append(" late)");
        } else {
            b.append("- (no readback sample yet)  total -");
        }
        b.append(System.lineSeparator());
        int n = b.length();
        if (bytes.length < n) {
            bytes = new byte[Math.max(n, 2 * bytes.length)];
        }
        for (int i = 0; i < n; i++) {
            char c = b.charAt(i);
            bytes[i] = (byte) (c < 128 ? c : '?');   // digits, ASCII text and the rare NaN or Infinity
        }
        log.write(bytes, 0, n);
        log.flush();
    }
}
