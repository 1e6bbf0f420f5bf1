package dev.tally.exposure;

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
    }

    @Test
    void rulesBetweenKeysAreConfigErrors() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ExposureSettings.fromConfig(Config.load(null, List.of("exposure.minEV=5", "exposure.maxEV=2"))));
        assertTrue(e.getMessage().contains("minEV") && e.getMessage().contains("maxEV"), e.getMessage());
        ConfigException range = assertThrows(ConfigException.class, () -> Config.load(null, List.of("exposure.darkenSpeed=0")));
        assertTrue(range.getMessage().contains("exposure.darkenSpeed"), range.getMessage());
    }
}
