package dev.tally.demo.app;
public final class PhaseTimer {
    static final String[] NAMES = {"start","begin","scene","ae","tonemap","probe","plot","hud","capture","record+end","submit"};
    static final int N = 200000;
    static final long[][] T = new long[NAMES.length][N];
    static long last; static int frame = -1;
    static final java.lang.management.ThreadMXBean TM = java.lang.management.ManagementFactory.getThreadMXBean();
    static long now() { return CPU ? TM.getCurrentThreadCpuTime() : System.nanoTime(); }
    static final boolean CPU = Boolean.getBoolean("phase.cpu");
    static void start() { frame++; last = now(); }
    static void mark(int i) { long now = now(); if (frame < N) T[i][frame] = now - last; last = now; }
    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        int n = Math.min(frame, N); int from = n / 2; double sum = 0;
        StringBuilder b = new StringBuilder("phase medians (ns) over frames " + from + ".." + n + ":");
        for (int i = 1; i < NAMES.length; i++) { long[] c = java.util.Arrays.copyOfRange(T[i], from, n); java.util.Arrays.sort(c); b.append(' ').append(NAMES[i]).append('=').append(c[c.length/2]); sum += c[c.length/2]; }
        long[] e = new long[10001]; for (int k = 0; k < e.length; k++) { long x = now(); e[k] = now() - x; } java.util.Arrays.sort(e); System.err.println(b + " sum=" + (long) sum + " empty=" + e[5000] + (CPU ? " (thread cpu)" : " (wall)"));
    })); }
}
