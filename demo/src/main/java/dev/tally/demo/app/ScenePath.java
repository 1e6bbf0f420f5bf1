package dev.tally.demo.app;

/**
 * The camera's walk through shaders/scene.comp, a pure function of scene time that loops every
 * {@value #LOOP_SECONDS} s: at the tunnel's dark end facing the lamp, turn to the mouth, walk out
 * into the sun, look around the plaza, turn back, walk in, stand at the dark end again.
 */
public final class ScenePath {
    public static final double LOOP_SECONDS = 20;
    /** The tunnel's mouth (scene.comp's MOUTH_Z) and the camera's dark and sunlit stations. */
    static final double MOUTH_Z = 30, DEEP_Z = 3, OUT_Z = 36, FAR_Z = 42, EYE_HEIGHT = 1.6;
    /** Scene time at which the camera steps out of the tunnel on the way out. */
    public static final double EXIT_SECONDS;

    /** Camera position in metres and heading in radians (0 looks down +z, towards the mouth). */
    public record Camera(double x, double y, double z, double heading) {
    }

    // Key frames: time (s), z (m), heading (radians); smooth steps between neighbours.
    private static final double[][] KEYS = {
            {0.0, DEEP_Z, Math.PI},
            {0.8, DEEP_Z, Math.PI},
            {2.3, DEEP_Z, 0},
            {5.8, OUT_Z, 0},
            {10.5, FAR_Z, 0},
            {12.0, FAR_Z, Math.PI},
            {16.5, DEEP_Z, Math.PI},
            {LOOP_SECONDS, DEEP_Z, Math.PI},
    };

    static {
        double t = KEYS[2][0];
        while (at(t).z() < MOUTH_Z) {
            t += 1e-3;
        }
        EXIT_SECONDS = t;
    }

    private ScenePath() {
    }

    public static Camera at(double seconds) {
        double[] c = new double[4];
        at(seconds, c);
        return new Camera(c[0], c[1], c[2], c[3]);
    }

    /** The same into {@code xyzHeading} (x, y, z, heading): the frame's path, with no record per frame. */
    static void at(double seconds, double[] xyzHeading) {
        double t = seconds % LOOP_SECONDS;
        if (t < 0) {
            t += LOOP_SECONDS;
        }
        int k = 0;
        while (k < KEYS.length - 2 && t >= KEYS[k + 1][0]) {
            k++;
        }
        double[] a = KEYS[k], b = KEYS[k + 1];
        double s = Math.min(1, Math.max(0, (t - a[0]) / (b[0] - a[0])));
        s = s * s * (3 - 2 * s);
        double z = a[1] + (b[1] - a[1]) * s;
        double heading = a[2] + (b[2] - a[2]) * s;
        // A gentle sideways drift outdoors, none in the tunnel.
        double x = z > MOUTH_Z ? 1.5 * Math.sin((z - MOUTH_Z) / (FAR_Z - MOUTH_Z) * Math.PI) : 0;
        xyzHeading[0] = x;
        xyzHeading[1] = EYE_HEIGHT;
        xyzHeading[2] = z;
        xyzHeading[3] = heading;
    }
}
