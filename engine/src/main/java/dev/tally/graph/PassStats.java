package dev.tally.graph;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recent GPU times per pass, read from timestamps without waiting (every {@code graph.passTimingInterval}-th frame
 * times each pass; every frame times its span): the numbers for a HUD or a profiler. Names are the passes' names;
 * the frame's span, first pass start to last pass end, is kept under {@link #FRAME_SPAN}. Get it from
 * {@code Tally.passStats()}; reading it allocates nothing except {@link #passes()}.
 */
public interface PassStats {
    /** The name under which each frame's span (first pass start to last pass end) is kept. */
    String FRAME_SPAN = "frame.span";

    /** {@return how many passes were seen ({@link #passes()}'s size)} */
    int passCount();

    /**
     * {@return the {@code i}-th pass seen, in first-seen order}
     *
     * @param i from 0 to {@link #passCount()} - 1
     */
    String passName(int i);

    /**
     * {@return whether it was culled in the frame that last recorded it (false for a pass never seen)}
     *
     * @param name a pass's name
     */
    boolean isCulled(String name);

    /**
     * {@return the median GPU microseconds of its last 128 samples, NaN before the first arrives}
     *
     * @param pass a pass's name, or {@link #FRAME_SPAN}
     */
    double medianMicros(String pass);

    /**
     * {@return its newest sample in microseconds, NaN before the first arrives}
     *
     * @param pass a pass's name, or {@link #FRAME_SPAN}
     */
    double latestMicros(String pass);

    /**
     * {@return how many samples of it were read so far}
     *
     * @param pass a pass's name, or {@link #FRAME_SPAN}
     */
    long samples(String pass);

    /** {@return a copy: pass name to whether it was culled in the latest frame, in first-seen order} */
    Map<String, Boolean> passes();
}
