package dev.tally.demo.app;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The scene's rays come from the CPU as corner + px * stepX + py * stepY. They must point where a
 * pinhole camera looks: through the pixel's position on an image plane at distance 1, the vertical field
 * of view 70 degrees, y up on screen, turned by the camera's heading about the vertical axis.
 */
class SceneRaysTest {
    private static double[] ray(ByteBuffer push, double px, double py) {
        double[] r = new double[3];
        for (int i = 0; i < 3; i++) {
            r[i] = push.getFloat(16 + 4 * i) + px * push.getFloat(32 + 4 * i) + py * push.getFloat(48 + 4 * i);
        }
        return r;
    }

    private static double[] unit(double[] v) {
        double n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new double[]{v[0] / n, v[1] / n, v[2] / n};
    }

    @Test
    void everyPixelsRayIsThePinholeCamerasRay() {
        Random random = new Random(7);
        double tan = Math.tan(Math.toRadians(35));
        for (int trial = 0; trial < 200; trial++) {
            int w = 1 + random.nextInt(4000), h = 1 + random.nextInt(2200);
            double heading = (random.nextDouble() - 0.5) * 4 * Math.PI;
            ScenePath.Camera cam = new ScenePath.Camera(random.nextDouble(), 1.7, random.nextDouble() * 40, heading);
            ByteBuffer push = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
            SceneRenderer.putRays(push, cam, w, h, 3f);
            assertEquals(w, push.getFloat(28));
            assertEquals(h, push.getFloat(44));
            double px = random.nextDouble() * w, py = random.nextDouble() * h;
            double aspect = (double) w / h;
            double lx = (2 * px / w - 1) * aspect * tan, ly = -(2 * py / h - 1) * tan;
            double[] local = unit(new double[]{lx, ly, 1});
            double s = Math.sin(heading), c = Math.cos(heading);
            double[] expected = {c * local[0] + s * local[2], local[1], -s * local[0] + c * local[2]};
            double[] got = unit(ray(push, px, py));
            for (int i = 0; i < 3; i++) {
                assertEquals(expected[i], got[i], 2e-5, "component " + i + " at " + px + ", " + py + " of " + w + "x" + h);
            }
        }
    }

    @Test
    void theImageCentreLooksAlongTheHeading() {
        ScenePath.Camera cam = new ScenePath.Camera(0, 1.7, 0, 0);
        ByteBuffer push = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        SceneRenderer.putRays(push, cam, 640, 360, 0f);
        double[] centre = unit(ray(push, 320, 180));
        assertArrayEquals(new double[]{0, 0, 1}, centre, 1e-6, "heading 0 looks down +z");
        double[] top = ray(push, 320, 0);
        assertTrue(top[1] > 0, "row 0 is the top of the image");
    }
}
