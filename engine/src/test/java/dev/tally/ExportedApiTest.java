package dev.tally;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The exported API is a promise: {@code src/test/resources/api/exported-types.txt} records every public type
 * of the packages module-info exports, and no public or protected member of those types names a type of a
 * package the module does not export (an embedder could not use it).
 */
class ExportedApiTest {
    private static final Path MODULE_INFO = Path.of("src/main/java/module-info.java");
    private static final Path CLASSES = Path.of("target/classes");
    private static final Path RECORD = Path.of("src/test/resources/api/exported-types.txt");

    @Test
    void theExportedTypesAreTheRecordedOnes() throws IOException {
        List<String> recorded = Files.readAllLines(RECORD).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        List<String> actual = exportedTypes().stream().map(Class::getName).sorted().toList();
        Set<String> added = new TreeSet<>(actual);
        recorded.forEach(added::remove);
        Set<String> removed = new TreeSet<>(recorded);
        actual.forEach(removed::remove);
        assertTrue(added.isEmpty() && removed.isEmpty(), "exported public types changed: added " + added + ", removed " + removed
                + "; an exported type is a promise to embedders: update " + RECORD + " only on purpose");
    }

    @Test
    void noExportedMemberNamesAnInternalType() throws IOException {
        Set<String> exported = exportedPackages();
        List<String> leaks = new ArrayList<>();
        for (Class<?> c : exportedTypes()) {
            List<Type> named = new ArrayList<>();
            if (c.getGenericSuperclass() != null) {
                named.add(c.getGenericSuperclass());
            }
            named.addAll(List.of(c.getGenericInterfaces()));
            for (Field f : c.getDeclaredFields()) {
                if (visible(f.getModifiers())) {
                    check(leaks, exported, c.getName() + "." + f.getName(), List.of(f.getGenericType()));
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                if (visible(m.getModifiers()) && !m.isSynthetic()) {
                    check(leaks, exported, c.getName() + "." + m.getName(), signature(m, m.getGenericReturnType()));
                }
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (visible(k.getModifiers()) && !k.isSynthetic()) {
                    check(leaks, exported, c.getName() + ".<init>", signature(k, null));
                }
            }
            check(leaks, exported, c.getName() + " (supertypes)", named);
        }
        assertTrue(leaks.isEmpty(), "exported members name internal types: " + String.join("; ", leaks));
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<Type> signature(Executable e, Type returned) {
        List<Type> out = new ArrayList<>(List.of(e.getGenericParameterTypes()));
        out.addAll(List.of(e.getGenericExceptionTypes()));
        if (returned != null) {
            out.add(returned);
        }
        return out;
    }

    private static void check(List<String> leaks, Set<String> exported, String where, List<Type> types) {
        Set<Class<?>> seen = new java.util.HashSet<>();
        for (Type t : types) {
            collect(t, seen, new java.util.HashSet<>());
        }
        for (Class<?> c : seen) {
            Class<?> top = c;
            while (top.isArray()) {
                top = top.getComponentType();
            }
            String pkg = top.getPackageName();
            if (pkg.startsWith("dev.tally") && !exported.contains(pkg)) {
                leaks.add(where + " names " + top.getName());
            }
        }
    }

    private static void collect(Type t, Set<Class<?>> out, Set<Type> visiting) {
        if (!visiting.add(t)) {
            return;
        }
        if (t instanceof Class<?> c) {
            out.add(c);
        } else if (t instanceof ParameterizedType p) {
            collect(p.getRawType(), out, visiting);
            for (Type a : p.getActualTypeArguments()) {
                collect(a, out, visiting);
            }
        } else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                collect(b, out, visiting);
            }
            for (Type b : w.getLowerBounds()) {
                collect(b, out, visiting);
            }
        } else if (t instanceof GenericArrayType g) {
            collect(g.getGenericComponentType(), out, visiting);
        } else if (t instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) {
                collect(b, out, visiting);
            }
        }
    }

    /** The packages module-info exports to everyone (no qualified exports). */
    static Set<String> exportedPackages() throws IOException {
        Matcher m = Pattern.compile("^\\s*exports\\s+([\\w.]+)\\s*;", Pattern.MULTILINE).matcher(Files.readString(MODULE_INFO));
        Set<String> out = new TreeSet<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        assertFalse(out.isEmpty(), "no exports found in " + MODULE_INFO.toAbsolutePath());
        return out;
    }

    /** Every public type (nested ones whose enclosing types are public too) of the exported packages, from the compiled classes. */
    static List<Class<?>> exportedTypes() throws IOException {
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : exportedPackages()) {
            Path dir = CLASSES.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                    String name = pkg + "." + f.getFileName().toString().replace(".class", "");
                    if (name.endsWith("module-info") || name.endsWith("package-info")) {
                        continue;
                    }
                    Class<?> c;
                    try {
                        c = Class.forName(name, false, ExportedApiTest.class.getClassLoader());
                    } catch (ClassNotFoundException e) {
                        throw new AssertionError("compiled class " + f + " cannot be loaded", e);
                    }
                    if (c.isAnonymousClass() || c.isSynthetic() || c.isLocalClass()) {
                        continue;
                    }
                    boolean visible = true;
                    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
                        visible &= Modifier.isPublic(k.getModifiers());
                    }
                    if (visible) {
                        out.add(c);
                    }
                }
            }
        }
        return out;
    }
}
