package dev.tally;

import dev.tally.internal.engine.Engine;

import dev.tally.config.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One validated runtime per test class (on lavapipe in CI), with synchronization validation. Any
 * validation message fails the test that caused it; leaks at shutdown fail the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class GpuTestBase {
    protected Tally runtime;

    protected List<String> configOverrides() {
        return List.of();
    }

    @BeforeAll
    void openRuntime() {
        List<String> overrides = new java.util.ArrayList<>(List.of("validation.enabled=true"));
        overrides.addAll(configOverrides());
        runtime = Tally.open(Config.load(null, overrides), List.of());
    }

    @AfterEach
    void noValidationMessages() {
        Engine.of(runtime).context().waitIdle();
        assertEquals(0, Engine.of(runtime).context().validationLog().total(),
                () -> "validation messages: " + Engine.of(runtime).context().validationLog().messages());
    }

    @AfterAll
    void closeRuntime() {
        var log = Engine.of(runtime).context().validationLog();
        runtime.close();
        assertEquals(0, log.total(), () -> "validation messages at shutdown (leaks?): " + log.messages());
    }
}
