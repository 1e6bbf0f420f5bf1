package dev.tally.internal.exposure;

import dev.tally.exposure.ExposureCurve;

import dev.tally.exposure.ExposureMode;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureSettings;

import dev.tally.config.Config;
import dev.tally.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Exposure settings come from config/ (every key), validated key by key and across keys. */
class ExposureConfigTest {
    @Test
    void defaultsMatchTheModelsDefaults() {
        assertEquals(ExposureSettings.DEFAULTS, ExposureSettings.fromConfig(Config.defaults()));
    }

    @Test
    void everyKeyReachesTheSettings() {
        ExposureSettings s = ExposureSettings.fromConfig(Config.load(null, List.of("exposure.minEV=-8", "exposure.maxEV=16",
                "exposure.lowPercentile=0.2", "exposure.highPercentile=0.8", "exposure.middleGrey=0.25", "exposure.compensation=1.5",
                "exposure.brightenSpeed=4", "exposure.darkenSpeed=2", "exposure.metering=centre")));
        assertEquals(new ExposureSettings(-8f, 16f, 0.2f, 0.8f, 0.25f, 1.5f, 4f, 2f, Metering.CENTRE), s);
        ExposureSettings t = ExposureSettings.fromConfig(Config.load(null, List.of("exposure.mode=physical", "exposure.manualEV=3",
                "exposure.aperture=2.8", "exposure.shutterSeconds=0.004", "exposure.iso=800", "exposure.clampMinEV=-4",
                "exposure.clampMaxEV=12", "exposure.curve=-6:-2, 0:0,4:0.5", "exposure.transitionEV=2",
                "exposure.deadBandEV=0.3", "exposure.histogramFilterSeconds=1.5")));
        assertEquals(ExposureSettings.DEFAULTS.withManual(3f).withPhysical(2.8f, 0.004f, 800f).withClamps(-4f, 12f)
                .withCurve(ExposureCurve.of(new float[]{-6f, 0f, 4f}, new float[]{-2f, 0f, 0.5f})).withTransition(2f)
                .withStability(0.3f, 1.5f), t);
        assertEquals(ExposureMode.MANUAL, ExposureSettings.fromConfig(Config.load(null, List.of("exposure.mode=manual"))).mode());
    }

    @Test
    void aBadCurveNamesTheKeyAndThePoint() {
        for (String bad : List.of("1:2, 1:3", "1;2", "a:b", "0:99")) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> ExposureSettings.fromConfig(Config.load(null, List.of("exposure.curve=" + bad))), bad);
            assertTrue(e.getMessage().startsWith("--set exposure.curve=" + bad + ": key 'exposure.curve': ") && e.getMessage().contains("point"),
                    e.getMessage());
        }
    }

    @Test
    void rulesBetweenKeysAreConfigErrors() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ExposureSettings.fromConfig(Config.load(null, List.of("exposure.minEV=5", "exposure.maxEV=2"))));
        assertTrue(e.getMessage().startsWith("--set exposure.minEV=5 and --set exposure.maxEV=2: ") && e.getMessage().contains("'exposure.minEV' (5")
                && e.getMessage().contains("'exposure.maxEV' (2"), e.getMessage());
        ConfigException range = assertThrows(ConfigException.class, () -> Config.load(null, List.of("exposure.darkenSpeed=0")));
        assertTrue(range.getMessage().contains("exposure.darkenSpeed"), range.getMessage());
    }
}
