package dev.tally.exposure;

import java.util.Arrays;

/**
 * Exposure compensation as a function of scene EV: control points {@code (sceneEV, stops)}, linear
 * between them and constant beyond the ends. Positive stops brighten the image, as the compensation
 * setting does; a curve that falls toward dark scenes keeps them dark instead of lifting every scene
 * to the same brightness. Immutable.
 *
 * <p>The GPU reads it as a table baked by {@link #bake()} whenever the settings change (no readback):
 * {@link #SAMPLES} evenly spaced samples from the first point to the last, interpolated linearly.
 * Between samples the table is the chord of the curve, so a corner between two samples is rounded off
 * by at most (change of slope) x (sample spacing) / 4.
 */
public final class ExposureCurve {
    /** At most this many control points. */
    public static final int MAX_POINTS = 16;
    /** Samples in the baked table. */
    public static final int SAMPLES = 64;
    /** Table header: start EV, samples per EV, sample count, reserved. */
    public static final int HEADER_FLOATS = 4;
    /** Floats of the baked table: the header, then the samples. */
    public static final int TABLE_FLOATS = HEADER_FLOATS + SAMPLES;
    /** Bytes of the baked table, the size of the buffer exposure.comp reads it from. */
    public static final long TABLE_BYTES = TABLE_FLOATS * 4L;
    /** Largest |stops| of a control point. */
    public static final float MAX_STOPS = 20f;

    /** No curve: no compensation from scene EV (the default; the config spells it {@code none}). */
    public static final ExposureCurve NONE = new ExposureCurve(new float[0], new float[0]);

    private final float[] sceneEV;
    private final float[] stops;

    private ExposureCurve(float[] sceneEV, float[] stops) {
        this.sceneEV = sceneEV;
        this.stops = stops;
    }

    /**
     * A curve from control points; {@code sceneEV} strictly ascending, both arrays the same length, at
     * most {@link #MAX_POINTS}, every value finite and {@code |stops| <= 20}.
     *
     * @param sceneEV the points' scene EVs (metered mean log2 luminance minus log2 middle grey), copied
     * @param stops   the compensation at each point, in stops, copied
     * @return the curve
     * @throws IllegalArgumentException naming the point and the rule it breaks
     */
    public static ExposureCurve of(float[] sceneEV, float[] stops) {
        if (sceneEV.length != stops.length) {
            throw new IllegalArgumentException("curve: " + sceneEV.length + " scene EVs but " + stops.length + " stop values");
        }
        if (sceneEV.length > MAX_POINTS) {
            throw new IllegalArgumentException("curve: at most " + MAX_POINTS + " points, got " + sceneEV.length);
        }
        for (int i = 0; i < sceneEV.length; i++) {
            if (!Float.isFinite(sceneEV[i]) || !Float.isFinite(stops[i]) || Math.abs(stops[i]) > MAX_STOPS) {
                throw new IllegalArgumentException("curve: point " + (i + 1) + " (" + sceneEV[i] + ":" + stops[i]
                        + ") must be finite with |stops| <= " + MAX_STOPS);
            }
            if (i > 0 && !(sceneEV[i] > sceneEV[i - 1])) {
                throw new IllegalArgumentException("curve: scene EVs must be strictly ascending, point " + (i + 1) + " ("
                        + sceneEV[i] + ") follows " + sceneEV[i - 1]);
            }
        }
        return new ExposureCurve(sceneEV.clone(), stops.clone());
    }

    /**
     * Parses {@code "sceneEV:stops, sceneEV:stops, ..."} (e.g. {@code "-4:-2, 2:0"}); {@code "none"} or
     * an empty string is no curve. This is the {@code exposure.curve} key's syntax.
     *
     * @param text the points, comma-separated
     * @return the curve, or {@link #NONE}
     * @throws IllegalArgumentException naming the point that is not {@code sceneEV:stops} or breaks a rule of {@link #of}
     */
    public static ExposureCurve parse(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.equals("none")) {
            return NONE;
        }
        String[] parts = t.split(",");
        float[] x = new float[parts.length];
        float[] y = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String[] xy = parts[i].strip().split(":");
            if (xy.length != 2) {
                throw new IllegalArgumentException("curve: point " + (i + 1) + " '" + parts[i].strip()
                        + "' is not sceneEV:stops (e.g. -4:-2)");
            }
            try {
                x[i] = Float.parseFloat(xy[0].strip());
                y[i] = Float.parseFloat(xy[1].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("curve: point " + (i + 1) + " '" + parts[i].strip() + "' is not two numbers");
            }
        }
        return of(x, y);
    }

    /** {@return the number of control points (0 for {@link #NONE})} */
    public int points() {
        return sceneEV.length;
    }

    /**
     * {@return that point's scene EV}
     *
     * @param i a point's index, from 0
     */
    public float sceneEV(int i) {
        return sceneEV[i];
    }

    /**
     * {@return that point's compensation in stops}
     *
     * @param i a point's index, from 0
     */
    public float stops(int i) {
        return stops[i];
    }

    /**
     * The curve itself (piecewise linear, in double), what the baked table samples.
     *
     * @param ev a scene EV
     * @return the compensation there in stops; 0 for {@link #NONE}
     */
    public double evaluate(double ev) {
        int n = sceneEV.length;
        if (n == 0) {
            return 0;
        }
        if (ev <= sceneEV[0]) {
            return stops[0];
        }
        if (ev >= sceneEV[n - 1]) {
            return stops[n - 1];
        }
        int i = 0;
        while (ev > sceneEV[i + 1]) {
            i++;
        }
        double f = (ev - sceneEV[i]) / ((double) sceneEV[i + 1] - sceneEV[i]);
        return stops[i] + f * ((double) stops[i + 1] - stops[i]);
    }

    /**
     * The GPU table, {@link #TABLE_FLOATS} floats: [0] the first point's EV, [1] samples per EV,
     * [2] the sample count (0: no curve, 1: a constant), [3] 0, then the samples, sample j at
     * {@code start + j / samplesPerEV}.
     *
     * @return a new array, for the upload to exposure.comp's curve binding
     */
    public float[] bake() {
        float[] table = new float[TABLE_FLOATS];
        int n = sceneEV.length;
        if (n == 0) {
            return table;
        }
        table[0] = sceneEV[0];
        if (n == 1) {
            table[2] = 1f;
            table[HEADER_FLOATS] = stops[0];
            return table;
        }
        double span = (double) sceneEV[n - 1] - sceneEV[0];
        table[1] = (float) ((SAMPLES - 1) / span);
        table[2] = SAMPLES;
        for (int j = 0; j < SAMPLES; j++) {
            table[HEADER_FLOATS + j] = (float) evaluate(sceneEV[0] + span * j / (SAMPLES - 1));
        }
        return table;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExposureCurve c && Arrays.equals(sceneEV, c.sceneEV) && Arrays.equals(stops, c.stops);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(sceneEV) + Arrays.hashCode(stops);
    }

    /** The config spelling, {@code "x:y, x:y"} or {@code "none"}. */
    @Override
    public String toString() {
        if (sceneEV.length == 0) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sceneEV.length; i++) {
            b.append(i == 0 ? "" : ", ").append(sceneEV[i]).append(':').append(stops[i]);
        }
        return b.toString();
    }
}
