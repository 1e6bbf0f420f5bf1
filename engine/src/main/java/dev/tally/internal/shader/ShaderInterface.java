package dev.tally.internal.shader;

import dev.tally.shader.BindingType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a compute shader's SPIR-V uses from its pipeline layout: the set-0 bindings it reads or writes (by kind) and
 * the bytes of push constants it reaches. Read from the module's own types and decorations, so that a host kernel
 * declared with other bindings or a smaller push-constant range is refused where it is made, in one line, instead of
 * reaching the device as a validation message. Only statically used variables count (loaded, stored or indexed in
 * the module), as Vulkan's own rules do: a declared but unused block needs nothing from the layout.
 */
final class ShaderInterface {
    private static final int MAGIC = 0x07230203;
    // Opcodes (SPIR-V 1.6 unified specification, section 3.52).
    private static final int OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23, OP_TYPE_MATRIX = 24, OP_TYPE_IMAGE = 25,
            OP_TYPE_SAMPLED_IMAGE = 27, OP_TYPE_ARRAY = 28, OP_TYPE_RUNTIME_ARRAY = 29, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32,
            OP_CONSTANT = 43, OP_VARIABLE = 59, OP_LOAD = 61, OP_STORE = 62, OP_COPY_MEMORY = 63, OP_ACCESS_CHAIN = 65,
            OP_IN_BOUNDS_ACCESS_CHAIN = 66, OP_PTR_ACCESS_CHAIN = 67, OP_ARRAY_LENGTH = 68, OP_DECORATE = 71, OP_MEMBER_DECORATE = 72,
            OP_IMAGE_TEXEL_POINTER = 60, OP_ATOMIC_FIRST = 227, OP_ATOMIC_STORE = 228, OP_ATOMIC_LAST = 242;
    // Decorations and storage classes.
    private static final int DEC_BLOCK = 2, DEC_BUFFER_BLOCK = 3, DEC_ARRAY_STRIDE = 6, DEC_MATRIX_STRIDE = 7, DEC_BINDING = 33,
            DEC_DESCRIPTOR_SET = 34, DEC_OFFSET = 35;
    private static final int SC_UNIFORM_CONSTANT = 0, SC_UNIFORM = 2, SC_PUSH_CONSTANT = 9, SC_STORAGE_BUFFER = 12;

    /** A binding's kind as the shader uses it; {@code type} null for a kind no {@link BindingType} names. */
    record Use(BindingType type, String kind) {
    }

    /** Set-0 bindings the shader uses, by binding number. */
    final Map<Integer, Use> bindings;
    /** Bytes of push constants the shader's block spans (its last member's offset plus size); 0 when it uses none. */
    final int pushBytes;

    private ShaderInterface(Map<Integer, Use> bindings, int pushBytes) {
        this.bindings = bindings;
        this.pushBytes = pushBytes;
    }

    /** Refuses a kernel whose declared bindings or push-constant bytes do not hold what {@code shader}'s SPIR-V uses. */
    static void requireDeclared(String shader, byte[] spirv, List<BindingType> declared, int declaredPushBytes) {
        ShaderInterface used = of(shader, spirv);
        if (used.pushBytes > declaredPushBytes) {
            throw new IllegalArgumentException("computeKernel " + shader + ": the shader's push constants span " + used.pushBytes
                    + " bytes, pushBytes declares " + declaredPushBytes);
        }
        for (Map.Entry<Integer, Use> e : used.bindings.entrySet()) {
            int b = e.getKey();
            Use use = e.getValue();
            if (b >= declared.size()) {
                throw new IllegalArgumentException("computeKernel " + shader + ": the shader uses set 0 binding " + b + " (" + use.kind()
                        + "), but " + declared.size() + " bindings are declared");
            }
            if (use.type() != declared.get(b)) {
                throw new IllegalArgumentException("computeKernel " + shader + ": set 0 binding " + b + " is a " + use.kind() + " in the shader, declared "
                        + declared.get(b) + (use.type() == null ? " (kernels bind STORAGE_BUFFER, SAMPLED_IMAGE or STORAGE_IMAGE)" : ""));
            }
        }
    }

    static ShaderInterface of(String shader, byte[] spirv) {
        if (spirv.length < 20 || spirv.length % 4 != 0) {
            throw new IllegalStateException("internal: " + shader + "'s SPIR-V is " + spirv.length + " bytes, not a module");
        }
        IntBuffer w = ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        if (w.get(0) != MAGIC) {
            throw new IllegalStateException("internal: " + shader + "'s SPIR-V does not start with the SPIR-V magic number");
        }
        Module m = new Module();
        for (int at = 5; at < w.limit(); ) {
            int head = w.get(at), count = head >>> 16, op = head & 0xffff;
            if (count == 0 || at + count > w.limit()) {
                throw new IllegalStateException("internal: " + shader + "'s SPIR-V has a malformed instruction at word " + at);
            }
            m.read(w, at, count, op);
            at += count;
        }
        return m.result();
    }

    /** The module's instructions the interface needs, gathered in one pass. */
    private static final class Module {
        final Map<Integer, int[]> types = new HashMap<>();          // result id -> the type instruction's words after the opcode
        final Map<Integer, Long> constants = new HashMap<>();
        final Map<Integer, int[]> variables = new HashMap<>();      // result id -> {pointer type, storage class}
        final Map<Integer, Integer> set = new HashMap<>(), binding = new HashMap<>(), arrayStride = new HashMap<>();
        final Set<Integer> blocks = new HashSet<>(), bufferBlocks = new HashSet<>();
        final Map<Long, Integer> memberOffset = new HashMap<>(), matrixStride = new HashMap<>();   // (struct << 32 | member)
        final Set<Integer> used = new HashSet<>();

        void read(IntBuffer w, int at, int count, int op) {
            switch (op) {
                case OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX, OP_TYPE_IMAGE, OP_TYPE_SAMPLED_IMAGE, OP_TYPE_ARRAY,
                     OP_TYPE_RUNTIME_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER -> {
                    int[] words = new int[count];
                    words[0] = op;
                    for (int i = 2; i < count; i++) {
                        words[i - 1] = w.get(at + i);
                    }
                    types.put(w.get(at + 1), java.util.Arrays.copyOf(words, count - 1));
                }
                case OP_CONSTANT -> constants.put(w.get(at + 2), count > 3 ? w.get(at + 3) & 0xffffffffL : 0);
                case OP_VARIABLE -> variables.put(w.get(at + 2), new int[]{w.get(at + 1), w.get(at + 3)});
                case OP_DECORATE -> {
                    int target = w.get(at + 1), decoration = w.get(at + 2);
                    switch (decoration) {
                        case DEC_DESCRIPTOR_SET -> set.put(target, w.get(at + 3));
                        case DEC_BINDING -> binding.put(target, w.get(at + 3));
                        case DEC_ARRAY_STRIDE -> arrayStride.put(target, w.get(at + 3));
                        case DEC_BLOCK -> blocks.add(target);
                        case DEC_BUFFER_BLOCK -> bufferBlocks.add(target);
                        default -> {
                        }
                    }
                }
                case OP_MEMBER_DECORATE -> {
                    long key = (long) w.get(at + 1) << 32 | w.get(at + 2);
                    if (w.get(at + 3) == DEC_OFFSET) {
                        memberOffset.put(key, w.get(at + 4));
                    } else if (w.get(at + 3) == DEC_MATRIX_STRIDE) {
                        matrixStride.put(key, w.get(at + 4));
                    }
                }
                // Uses: the pointer operand of a load, an access chain or a texel pointer; both of a copy; a store's target;
                // an atomic's pointer; a runtime array's length.
                case OP_LOAD, OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN, OP_PTR_ACCESS_CHAIN, OP_IMAGE_TEXEL_POINTER, OP_ARRAY_LENGTH ->
                        used.add(w.get(at + 3));
                case OP_STORE -> used.add(w.get(at + 1));
                case OP_COPY_MEMORY -> {
                    used.add(w.get(at + 1));
                    used.add(w.get(at + 2));
                }
                default -> {
                    if (op == OP_ATOMIC_STORE) {
                        used.add(w.get(at + 1));
                    } else if (op >= OP_ATOMIC_FIRST && op <= OP_ATOMIC_LAST && count > 3) {
                        used.add(w.get(at + 3));
                    }
                }
            }
        }

        ShaderInterface result() {
            Map<Integer, Use> uses = new TreeMap<>();
            int push = 0;
            for (Map.Entry<Integer, int[]> v : variables.entrySet()) {
                int id = v.getKey(), storage = v.getValue()[1];
                if (!used.contains(id)) {
                    continue;
                }
                int pointee = pointee(v.getValue()[0]);
                if (storage == SC_PUSH_CONSTANT) {
                    push = Math.max(push, size(pointee));
                } else if ((storage == SC_UNIFORM || storage == SC_UNIFORM_CONSTANT || storage == SC_STORAGE_BUFFER)
                        && set.getOrDefault(id, 0) == 0 && binding.containsKey(id)) {
                    uses.put(binding.get(id), use(storage, pointee));
                }
            }
            return new ShaderInterface(uses, push);
        }

        private int pointee(int pointerType) {
            int[] t = types.get(pointerType);
            return t != null && t[0] == OP_TYPE_POINTER ? t[2] : pointerType;
        }

        /** The descriptor kind of a variable of {@code storage} class pointing at {@code type} (arrays of descriptors by their element). */
        private Use use(int storage, int type) {
            int[] t = types.get(type);
            while (t != null && (t[0] == OP_TYPE_ARRAY || t[0] == OP_TYPE_RUNTIME_ARRAY)) {
                type = t[1];
                t = types.get(type);
            }
            if (storage == SC_STORAGE_BUFFER || storage == SC_UNIFORM && bufferBlocks.contains(type)) {
                return new Use(BindingType.STORAGE_BUFFER, "storage buffer");
            }
            if (storage == SC_UNIFORM) {
                return new Use(null, "uniform buffer");
            }
            if (t != null && t[0] == OP_TYPE_SAMPLED_IMAGE) {
                return new Use(BindingType.SAMPLED_IMAGE, "sampled image");
            }
            if (t != null && t[0] == OP_TYPE_IMAGE) {
                // Sampled operand: 2 = read and written without a sampler (storage image), 1 = with one (a separate sampled image).
                return t[6] == 2 ? new Use(BindingType.STORAGE_IMAGE, "storage image") : new Use(null, "separate sampled image");
            }
            return new Use(null, "sampler or other resource");
        }

        /** Bytes a value of {@code type} spans in its block's explicit layout (offsets and strides as decorated). */
        private int size(int type) {
            int[] t = types.get(type);
            if (t == null) {
                return 0;
            }
            return switch (t[0]) {
                case OP_TYPE_INT, OP_TYPE_FLOAT -> t[1] / 8;
                case OP_TYPE_VECTOR -> t[2] * size(t[1]);
                case OP_TYPE_MATRIX -> t[2] * size(t[1]);   // without a member's MatrixStride: columns packed
                case OP_TYPE_ARRAY -> (int) (constants.getOrDefault(t[2], 0L) * arrayStride.getOrDefault(type, size(t[1])));
                case OP_TYPE_STRUCT -> {
                    int end = 0;
                    for (int i = 1; i < t.length; i++) {
                        long key = (long) type << 32 | (i - 1);
                        int member = t[i];
                        int[] mt = types.get(member);
                        int bytes = mt != null && mt[0] == OP_TYPE_MATRIX && matrixStride.containsKey(key)
                                ? mt[2] * matrixStride.get(key) : size(member);
                        end = Math.max(end, memberOffset.getOrDefault(key, 0) + bytes);
                    }
                    yield end;
                }
                default -> 0;
            };
        }
    }
}
