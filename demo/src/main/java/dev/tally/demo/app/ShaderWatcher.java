package dev.tally.demo.app;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/** Polls a shader directory for changes between frames (never blocks the loop). */
final class ShaderWatcher implements AutoCloseable {
    private final WatchService watcher;

    private ShaderWatcher(WatchService watcher) {
        this.watcher = watcher;
    }

    /** Null when the directory does not exist (packaged shaders: nothing to watch). */
    static ShaderWatcher watch(Path dir) {
        if (dir == null || !dir.toFile().isDirectory()) {
            return null;
        }
        try {
            WatchService w = FileSystems.getDefault().newWatchService();
            dir.register(w, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
            return new ShaderWatcher(w);
        } catch (IOException e) {
            return null;
        }
    }

    /** True when something changed since the last call. */
    boolean changed() {
        boolean any = false;
        WatchKey key;
        while ((key = watcher.poll()) != null) {
            any |= !key.pollEvents().isEmpty();
            key.reset();
        }
        return any;
    }

    @Override
    public void close() {
        try {
            watcher.close();
        } catch (IOException ignored) {
            // Closing a watch service only releases its handle.
        }
    }
}
