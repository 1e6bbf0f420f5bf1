package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureCurve;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The compensation curve: control points, parsing, and the table the GPU reads. */
class ExposureCurveTest {
    private static final ExposureCurve CURVE = ExposureCurve.of(new float[]{-6f, 0f, 6.6f}, new float[]{-2f, 0f, 1f});

    @Test
    void theCurveIsLinearBetweenPointsAndFlatBeyond() {
        assertEquals(-2.0, CURVE.evaluate(-20), 0.0);
        assertEquals(-1.0, CURVE.evaluate(-3), 1e-12);
        assertEquals(0.5, CURVE.evaluate(3.3), 1e-6);
        assertEquals(1.0, CURVE.evaluate(40), 0.0);
        assertEquals(0.0, ExposureCurve.NONE.evaluate(5), 0.0);
    }

    @Test
    void theBakedTableFollowsTheCurve() {
        float[] table = CURVE.bake();
        assertEquals(ExposureCurve.TABLE_FLOATS, table.length);
        assertEquals(-6f, table[0]);
        assertEquals(ExposureCurve.SAMPLES, (int) table[2]);
        // Samples every 12.6 / 63 = 0.2 EV: both control points' neighbourhoods are sampled, so the
        // lookup is the curve within float rounding everywhere except inside the sample span around
        // the corner at 0, where the chord rounds it off by at most slope change x spacing / 4.
        double corner = (2.0 / 6 - 1.0 / 6.6) * (12.6 / 63) / 4;
        for (double ev = -10; ev <= 10; ev += 0.01) {
            double tolerance = Math.abs(ev) < 0.2 ? corner + 1e-6 : 2e-6;
            assertEquals(CURVE.evaluate(ev), ExposureModel.curveAt(table, (float) ev), tolerance, "at " + ev);
        }
        assertEquals(0f, ExposureModel.curveAt(ExposureCurve.NONE.bake(), 3f), "no curve: no compensation");
        float[] constant = ExposureCurve.of(new float[]{1f}, new float[]{0.75f}).bake();
        assertEquals(0.75f, ExposureModel.curveAt(constant, -50f));
        assertEquals(0.75f, ExposureModel.curveAt(constant, 50f));
    }

    @Test
    void parsingAcceptsTheConfigSpellingAndNamesBadPoints() {
        assertEquals(CURVE, ExposureCurve.parse(" -6:-2, 0:0 ,6.6:1 "));
        assertEquals(ExposureCurve.NONE, ExposureCurve.parse("none"));
        assertEquals(ExposureCurve.NONE, ExposureCurve.parse(""));
        assertEquals(CURVE, ExposureCurve.parse(CURVE.toString()));
        for (String[] bad : new String[][]{{"1:2, 1:3", "strictly ascending, point 2"}, {"1;2", "point 1 '1;2' is not sceneEV:stops"},
                {"x:1", "point 1 'x:1' is not two numbers"}, {"0:21", "|stops| <= 20"}, {"0:NaN", "must be finite"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExposureCurve.parse(bad[0]), bad[0]);
            assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
        }
        float[] many = new float[ExposureCurve.MAX_POINTS + 1];
        for (int i = 0; i < many.length; i++) {
            many[i] = i;
        }
        assertThrows(IllegalArgumentException.class, () -> ExposureCurve.of(many, new float[many.length]));
    }
}
