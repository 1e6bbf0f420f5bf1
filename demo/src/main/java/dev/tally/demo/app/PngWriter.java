package dev.tally.demo.app;

import org.lwjgl.stb.STBIWriteCallback;
import org.lwjgl.system.MemoryUtil;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

import static org.lwjgl.stb.STBImageWrite.stbi_write_png_to_func;

/**
 * Writes 8-bit RGBA images as PNG files, encoded by stb_image_write (LWJGL's {@code lwjgl-stb}).
 *
 * <p>Pixels are given as tightly packed rows, top row first, 4 bytes per pixel in the order R, G, B, A
 * (non-premultiplied alpha). The same pixels always give the same bytes.
 *
 * <p>Stateless and thread-safe.
 */
public final class PngWriter {
    private static final int BYTES_PER_PIXEL = 4;

    private PngWriter() {
    }

    /**
     * Encodes an 8-bit RGBA image as a complete PNG file.
     *
     * @param width  width in pixels, at least 1
     * @param height height in pixels, at least 1
     * @param rgba   {@code 4 * width * height} bytes: rows top to bottom, pixels left to right, R G B A each
     * @return the PNG file's bytes
     * @throws IllegalArgumentException if a size is not positive, the image is too large for one array,
     *                                  or {@code rgba} is null or not exactly {@code 4 * width * height} bytes
     */
    public static byte[] encodeRgba(int width, int height, byte[] rgba) {
        validate(width, height, rgba);
        ByteBuffer pixels = MemoryUtil.memAlloc(rgba.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, rgba.length / 4));
        // stb hands the encoded file over in pieces through this callback.
        STBIWriteCallback sink = STBIWriteCallback.create((context, data, size) -> {
            byte[] chunk = new byte[size];
            MemoryUtil.memByteBuffer(data, size).get(chunk);
            out.writeBytes(chunk);
        });
        try {
            pixels.put(0, rgba);
            if (!stbi_write_png_to_func(sink, 0L, width, height, BYTES_PER_PIXEL, pixels, width * BYTES_PER_PIXEL)) {
                throw new IllegalStateException("stb_image_write could not encode a " + width + "x" + height + " PNG");
            }
            return out.toByteArray();
        } finally {
            sink.free();
            MemoryUtil.memFree(pixels);
        }
    }

    /**
     * Encodes the image like {@link #encodeRgba} and writes it to {@code file} atomically: the bytes go to
     * a temporary file in the same directory, are forced to storage, and the temporary file is then renamed
     * over {@code file} with {@link StandardCopyOption#ATOMIC_MOVE}. Readers see either the previous content
     * (or no file) or the complete new PNG, never a partial one. On failure the temporary file is removed.
     *
     * @param file   destination; its directory must exist; an existing file is replaced
     * @param width  width in pixels, at least 1
     * @param height height in pixels, at least 1
     * @param rgba   {@code 4 * width * height} bytes, as for {@link #encodeRgba}
     * @throws IllegalArgumentException if the arguments are invalid (nothing is written then)
     * @throws UncheckedIOException     if writing or renaming fails, including when the file system cannot
     *                                  rename atomically (cause {@link java.nio.file.AtomicMoveNotSupportedException})
     */
    public static void write(Path file, int width, int height, byte[] rgba) {
        if (file == null) {
            throw new IllegalArgumentException("PNG file path is null");
        }
        byte[] png = encodeRgba(width, height, rgba);

        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        if (dir == null) {
            throw new IllegalArgumentException("PNG file path has no parent directory: " + file);
        }
        Path tmp = null;
        boolean moved = false;
        try {
            // Not Files.createTempFile: its owner-only permissions would stick to the renamed PNG.
            // CREATE_NEW with a random name gives the usual umask-derived permissions, and never clobbers.
            FileChannel ch = null;
            String base = target.getFileName().toString();
            base = base.length() > 64 ? base.substring(0, 64) : base;
            for (int attempt = 0; ch == null; attempt++) {
                tmp = dir.resolve("." + base + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
                try {
                    ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    tmp = null;
                    if (attempt >= 100) {
                        throw e;
                    }
                }
            }
            try (FileChannel out = ch) {
                ByteBuffer buf = ByteBuffer.wrap(png);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                out.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } catch (IOException e) {
            throw new UncheckedIOException("writing PNG " + target, e);
        } finally {
            if (!moved && tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original failure matters more
                }
            }
        }
    }

    private static void validate(int width, int height, byte[] rgba) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("PNG size must be positive, got " + width + "x" + height);
        }
        long expected = (long) BYTES_PER_PIXEL * width * height;
        // The filtered stream has one extra byte per row and must fit in one array as well.
        long filtered = ((long) BYTES_PER_PIXEL * width + 1) * height;
        if (filtered > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("PNG size " + width + "x" + height + " is too large to encode in memory");
        }
        if (rgba == null) {
            throw new IllegalArgumentException("RGBA pixel array is null");
        }
        if (rgba.length != expected) {
            throw new IllegalArgumentException("RGBA pixel array has " + rgba.length + " bytes, expected 4*"
                + width + "*" + height + " = " + expected);
        }
    }
}
