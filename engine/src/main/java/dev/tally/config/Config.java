package dev.tally.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validated configuration. Format: one {@code key = value} per line, {@code #} starts a comment, keys
 * are dotted names from {@link ConfigSchema}. Layers, later wins: schema defaults, the packaged
 * {@code config/tally.conf}, a user file ({@code --config FILE}), single-key overrides ({@code --set k=v}).
 */
public final class Config {
    private final ConfigSchema schema;
    private final Map<String, String> values;
    /** Where each key's value came from ("FILE:LINE", "--set"), for errors that span keys. */
    private final Map<String, String> origins;

    private Config(ConfigSchema schema, Map<String, String> values, Map<String, String> origins) {
        this.schema = schema;
        this.values = Map.copyOf(values);
        this.origins = Map.copyOf(origins);
    }

    /**
     * The schema's defaults with the packaged {@code config/tally.conf} over them: what {@code ./tally}
     * runs with when given no file and no overrides.
     *
     * @return the default configuration
     * @throws ConfigException if the packaged file is unreadable or invalid (a broken jar)
     */
    public static Config defaults() {
        return load(null, List.of());
    }

    /**
     * Loads the packaged defaults, then {@code file}, then {@code overrides}; each layer is validated
     * against the schema as it is read.
     *
     * @param file      a configuration file of {@code key = value} lines, or null for none
     * @param overrides single {@code "key=value"} settings, applied last in list order
     * @return the validated configuration
     * @throws ConfigException naming the file and line (or the override), the key and what is allowed, on
     *                         an unreadable file, an unknown key, a key set twice in one file or a bad value
     */
    public static Config load(Path file, List<String> overrides) {
        ConfigSchema schema = ConfigSchema.standard();
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> origins = new HashMap<>();
        schema.keys().values().forEach(k -> {
            values.put(k.name(), k.defaultValue());
            origins.put(k.name(), "the built-in default");
        });
        try (InputStream in = Config.class.getClassLoader().getResourceAsStream("tally/config/tally.conf")) {
            if (in != null) {
                parse(schema, decode(in.readAllBytes(), "packaged config/tally.conf"), "config/tally.conf", values, origins);
            }
        } catch (IOException e) {
            throw new ConfigException("packaged config/tally.conf: unreadable: " + e.getMessage());
        }
        if (file != null) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new ConfigException(file + ": cannot read config file (" + e.getClass().getSimpleName() + ")");
            }
            parse(schema, decode(bytes, file.toString()), file.toString(), values, origins);
        }
        for (String o : overrides) {
            int eq = o.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("--set " + o + ": expected key=value");
            }
            String key = o.substring(0, eq).strip();
            ConfigKey k = schema.get(key);
            if (k == null) {
                throw new ConfigException("--set " + o + ": unknown key '" + key + "'; known keys: " + String.join(", ", schema.names()));
            }
            values.put(key, k.validate(o.substring(eq + 1), "--set"));
            origins.put(key, "--set " + key + "=" + o.substring(eq + 1).strip());
        }
        return new Config(schema, values, origins);
    }

    private static String decode(byte[] bytes, String where) {
        for (byte b : bytes) {
            if (b == 0) {
                throw new ConfigException(where + ": binary file (contains NUL bytes); expected key = value lines");
            }
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            // Editors on some systems start UTF-8 files with a byte-order mark; it is not part of the first key.
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new ConfigException(where + ": not UTF-8 text; expected key = value lines");
        }
    }

    static void parse(ConfigSchema schema, String text, String file, Map<String, String> values, Map<String, String> origins) {
        Set<String> seen = new HashSet<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + ":" + (i + 1);
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(where + ": expected 'key = value', got \"" + line + "\"");
            }
            String key = line.substring(0, eq).strip();
            ConfigKey k = schema.get(key);
            if (k == null) {
                throw new ConfigException(where + ": unknown key '" + key + "'; known keys: " + String.join(", ", schema.names()));
            }
            if (!seen.add(key)) {
                throw new ConfigException(where + ": key '" + key + "' is set twice in this file");
            }
            values.put(key, k.validate(line.substring(eq + 1), where));
            origins.put(key, where);
        }
    }

    /**
     * Where {@code key}'s value was set: "FILE:LINE" of a configuration file, "--set key=value", or "the
     * built-in default"; errors between keys name each key's origin.
     *
     * @param key a dotted key name from {@link ConfigSchema}
     * @return the origin of its value
     * @throws IllegalArgumentException if no such key exists
     */
    public String origin(String key) {
        string(key);
        return origins.get(key);
    }

    /**
     * {@return the value as validated text, e.g. {@code "auto"} or {@code "0.18"}}
     *
     * @param key a dotted key name from {@link ConfigSchema}
     * @throws IllegalArgumentException if no such key exists
     */
    public String string(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("no such config key: " + key);
        }
        return v;
    }

    /**
     * {@return whether the key is set to {@code auto}}
     *
     * @param key a key name; keys that allow {@code auto} let Tally choose for the device
     * @throws IllegalArgumentException if no such key exists
     */
    public boolean isAuto(String key) {
        return string(key).equals("auto");
    }

    /**
     * {@return its value}
     *
     * @param key an integer key, not set to {@code auto} (see {@link #integerOr})
     * @throws IllegalArgumentException if no such key exists
     * @throws NumberFormatException if the key is not an integer key or is set to {@code auto}
     */
    public int integer(String key) {
        return Integer.parseInt(string(key));
    }

    /**
     * The integer value, or {@code fallback} when the key is "auto".
     *
     * @param key      an integer key
     * @param fallback what "auto" stands for, typically chosen for the device
     * @return the value or the fallback
     * @throws IllegalArgumentException if no such key exists
     */
    public int integerOr(String key, int fallback) {
        return isAuto(key) ? fallback : integer(key);
    }

    /**
     * {@return its value}
     *
     * @param key a number key
     * @throws IllegalArgumentException if no such key exists
     * @throws NumberFormatException if the key is not a number key
     */
    public double real(String key) {
        return Double.parseDouble(string(key));
    }

    /**
     * {@return its value; false for a key that is not true/false}
     *
     * @param key a true/false key
     * @throws IllegalArgumentException if no such key exists
     */
    public boolean bool(String key) {
        return Boolean.parseBoolean(string(key));
    }

    /** {@return every key with its validated value as text (unmodifiable, in no particular order)} */
    public Map<String, String> values() {
        return values;
    }

    /**
     * A copy with {@code key} set (validated), for run-time changes; this configuration is unchanged.
     *
     * @param key   a dotted key name from {@link ConfigSchema}
     * @param value its new value, as a configuration file spells it
     * @return the new configuration; {@link #origin} of {@code key} is "set at run time"
     * @throws ConfigException naming the key and what is allowed, if the key is unknown or the value invalid
     */
    public Config with(String key, String value) {
        ConfigKey k = schema.get(key);
        if (k == null) {
            throw new ConfigException("unknown key '" + key + "'");
        }
        Map<String, String> copy = new LinkedHashMap<>(values);
        copy.put(key, k.validate(value, "set"));
        Map<String, String> from = new HashMap<>(origins);
        from.put(key, "set at run time");
        return new Config(schema, copy, from);
    }
}
