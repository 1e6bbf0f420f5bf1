package dev.tally.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.tally.demo.JsonNumbers.number;
import static org.junit.jupiter.api.Assertions.*;

/** The eye-adaptation scene through the demo: the EV ranges it produces and the filmstrip. */
class SceneAdaptationTest {
    @TempDir
    static Path cache;

    private static Cli.Run run(String... args) {
        List<String> all = new ArrayList<>(List.of("demo", "--validate"));
        all.addAll(Arrays.asList(args));
        all.add("--set");
        all.add("cache.dir=" + cache);
        return Cli.run(all.toArray(String[]::new));
    }

    @Test
    void tenSecondsGoFromTheTunnelIntoTheSunAndTheLoopSpansSixteenStops(@TempDir Path dir) throws Exception {
        Path ten = dir.resolve("ten.json"), loop = dir.resolve("loop.json");
        Cli.Run r = run("--headless", "--frames", "100", "--fixed-dt", "0.1", "--width", "160", "--height", "90", "--stats-json", ten.toString());
        assertEquals(0, r.status(), r.err());
        String json = Files.readString(ten);
        double range = number(json, "evMax") - number(json, "evMin");
        assertTrue(range >= 10, "applied EV spans " + range + " stops in 10 s of scene time, want >= 10: " + json);

        r = run("--headless", "--frames", "200", "--fixed-dt", "0.1", "--width", "160", "--height", "90", "--stats-json", loop.toString());
        assertEquals(0, r.status(), r.err());
        json = Files.readString(loop);
        double metered = number(json, "targetEvMax") - number(json, "targetEvMin");
        assertTrue(metered >= 16, "metered EV spans " + metered + " stops over the 20 s loop, want >= 16: " + json);
        assertTrue(number(json, "evMin") >= number(json, "targetEvMin") - 1e-3, "applied EV never goes below the darkest target");
    }

    @Test
    void filmstripShowsSixFramesGettingBrighterThenAdapting(@TempDir Path dir) throws Exception {
        Path strip = dir.resolve("strip.png");
        Cli.Run r = run("--filmstrip", strip.toString(), "--fixed-dt", "0.1", "--width", "320", "--height", "180");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("wrote " + strip), r.out());
        BufferedImage img = ImageIO.read(strip.toFile());
        assertEquals(6 * 320 + 7 * 4, img.getWidth());
        assertEquals(180 + 2 * 4, img.getHeight());
        double[] mean = new double[6];
        for (int f = 0; f < 6; f++) {
            long sum = 0;
            int x0 = 4 + f * (320 + 4);
            for (int y = 4; y < 4 + 120; y++) {       // above the label band
                for (int x = x0; x < x0 + 320; x++) {
                    int rgb = img.getRGB(x, y);
                    sum += (rgb >> 16 & 0xff) + (rgb >> 8 & 0xff) + (rgb & 0xff);
                }
            }
            mean[f] = sum / (3.0 * 120 * 320);
        }
        // Out into the sun the picture blows out (the eye still dark-adapted), then adaptation brings it down.
        int brightest = 0;
        for (int f = 1; f < 6; f++) {
            brightest = mean[f] > mean[brightest] ? f : brightest;
        }
        assertTrue(brightest > 0 && brightest < 5, "brightest frame in the middle: " + Arrays.toString(mean));
        assertTrue(mean[brightest] > mean[0] + 40 && mean[brightest] > mean[5] + 40, Arrays.toString(mean));
    }
}
