package dev.tally.demo.bench.replay;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.Callback;
import org.lwjgl.system.CallbackI;
import org.lwjgl.system.JNI;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.system.libffi.FFICIF;
import org.lwjgl.system.libffi.FFIType;
import org.lwjgl.vulkan.VKCapabilitiesDevice;
import org.lwjgl.vulkan.VKCapabilitiesInstance;
import org.lwjgl.vulkan.VkCommandBufferSubmitInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkSubmitInfo2;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.system.MemoryUtil.memGetAddress;
import static org.lwjgl.system.MemoryUtil.memGetInt;
import static org.lwjgl.system.MemoryUtil.memGetLong;
import static org.lwjgl.system.libffi.LibFFI.*;

/**
 * Captures the Vulkan calls one thread makes between {@link #start} and {@link #stop}, at the driver's door:
 * while capturing, the function addresses LWJGL dispatches vkCmd*, vkResetQueryPool and vkQueueSubmit2 through (the device's
 * and instance's capabilities, which every command buffer and queue of the device share) point at upcalls
 * that copy the call into a {@link CommandStream} and forward it to the driver. Whatever issued the calls,
 * graph, nodes or host, is captured the same; nothing in Tally changes. A vkCmd* call the stream cannot
 * replay is refused (not forwarded) and {@link #stop} says which. Single-threaded: the capturing thread
 * must be the only one recording or submitting on the device meanwhile.
 */
public final class CommandCapture implements AutoCloseable {
    private static final StreamOp[] OPS = StreamOp.values();

    private final VKCapabilitiesDevice deviceCaps;
    private final VKCapabilitiesInstance instanceCaps;
    private final List<Slot> slots = new ArrayList<>();
    private final List<FFICIF> cifs = new ArrayList<>();
    private final long[] real = new long[OPS.length];
    private final long[] scratch = new long[StreamOp.MAX_ARGS];
    private long realSubmit;
    private CommandStream into;
    private long commandBuffer;
    private String problem;

    /** One redirected function: its field in LWJGL's capabilities, the driver's address and the upcall's. */
    private record Slot(Field field, Object caps, long real, long upcall) {
    }

    public CommandCapture(VkDevice device) {
        this.deviceCaps = device.getCapabilities();
        this.instanceCaps = device.getCapabilitiesInstance();
        try {
            for (StreamOp op : OPS) {
                FFIType[] types = new FFIType[op.args.length + 1];
                types[0] = ffi_type_pointer;
                System.arraycopy(op.args, 0, types, 1, op.args.length);
                Object caps = op.instanceLevel ? instanceCaps : deviceCaps;
                long address = redirect(caps, op.function, new Upcall(cif(ffi_type_void, types), (ret, args) -> command(op, args)));
                real[op.ordinal()] = address;
            }
            realSubmit = redirect(deviceCaps, "vkQueueSubmit2", new Upcall(cif(ffi_type_sint32, ffi_type_pointer, ffi_type_uint32, ffi_type_pointer,
                    ffi_type_uint64), this::submit));
            FFICIF refused = cif(ffi_type_void, ffi_type_pointer);
            for (Object caps : new Object[]{deviceCaps, instanceCaps}) {
                for (Field f : caps.getClass().getFields()) {
                    String name = f.getName();
                    if (name.startsWith("vkCmd") && f.getType() == long.class && !Modifier.isStatic(f.getModifiers()) && !handled(name)
                            && f.getLong(caps) != 0) {
                        redirect(caps, name, new Upcall(refused, (ret, args) -> refuse(name)));
                    }
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            close();
            throw new IllegalStateException("internal: cannot redirect LWJGL's Vulkan functions for the command-stream capture: " + e, e);
        }
    }

    /** Starts capturing into {@code stream}: from now on this device's vkCmd* and vkQueueSubmit2 calls are copied there. */
    public void start(CommandStream stream) {
        if (into != null) {
            throw new IllegalStateException("internal: capture started twice");
        }
        into = stream;
        commandBuffer = 0;
        problem = null;
        install(true);
    }

    /** Stops capturing and gives LWJGL its driver addresses back; fails when a call could not be captured. */
    public CommandStream stop() {
        if (into == null) {
            throw new IllegalStateException("internal: capture stopped without a start");
        }
        install(false);
        CommandStream stream = into;
        into = null;
        if (problem != null) {
            throw new IllegalStateException("internal: " + problem);
        }
        return stream;
    }

    private void install(boolean capture) {
        try {
            for (Slot s : slots) {
                s.field().setLong(s.caps(), capture ? s.upcall() : s.real());
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("internal: cannot " + (capture ? "redirect" : "restore") + " LWJGL's Vulkan functions: " + e, e);
        }
    }

    private static boolean handled(String function) {
        for (StreamOp op : OPS) {
            if (op.function.equals(function)) {
                return true;
            }
        }
        return false;
    }

    private long redirect(Object caps, String function, Upcall upcall) throws ReflectiveOperationException {
        Field f = caps.getClass().getField(function);
        f.setAccessible(true);   // the capabilities' fields are final: written only while capturing, restored after
        long address = f.getLong(caps);
        if (address == 0) {
            upcall.free();
            return 0;   // the device lacks it: nothing can call it
        }
        slots.add(new Slot(f, caps, address, upcall.address));
        return address;
    }

    private void command(StreamOp op, long args) {
        long cmd = memGetAddress(memGetAddress(args));
        for (int k = 0; k < op.args.length; k++) {
            long p = memGetAddress(args + (long) (k + 1) * Long.BYTES);
            long type = op.args[k].address();
            scratch[k] = type == ffi_type_pointer.address() ? memGetAddress(p) : type == ffi_type_uint32.address() ? memGetInt(p) & 0xFFFF_FFFFL : memGetLong(p);
        }
        Forward.call(op, cmd, scratch, real[op.ordinal()]);
        if (op.host()) {
            into.add(op, scratch);   // its first argument was the device
            return;
        }
        if (commandBuffer == 0) {
            commandBuffer = cmd;
        } else if (commandBuffer != cmd && problem == null) {
            problem = "the captured frame recorded into more than one command buffer; the replay issues one";
        }
        into.add(op, scratch);
    }

    private void submit(long ret, long args) {
        long queue = memGetAddress(memGetAddress(args));
        int count = memGetInt(memGetAddress(args + Long.BYTES));
        long submits = memGetAddress(memGetAddress(args + 2L * Long.BYTES));
        long fence = memGetLong(memGetAddress(args + 3L * Long.BYTES));
        int result = JNI.callPPJI(queue, count, submits, fence, realSubmit);
        MemoryUtil.memPutLong(ret, result);   // libffi widens a small return value to a full register
        int waits = 0, buffers = 0, signals = 0;
        for (int i = 0; i < count; i++) {
            long s = submits + (long) VkSubmitInfo2.SIZEOF * i;
            waits += VkSubmitInfo2.nwaitSemaphoreInfoCount(s);
            signals += VkSubmitInfo2.nsignalSemaphoreInfoCount(s);
            int n = VkSubmitInfo2.ncommandBufferInfoCount(s);
            long infos = memGetAddress(s + VkSubmitInfo2.PCOMMANDBUFFERINFOS);
            for (int j = 0; j < n; j++) {
                long cmd = memGetAddress(infos + (long) VkCommandBufferSubmitInfo.SIZEOF * j + VkCommandBufferSubmitInfo.COMMANDBUFFER);
                if (cmd != commandBuffer && problem == null) {
                    problem = "the captured frame submitted a command buffer it did not record into";
                }
            }
            buffers += n;
        }
        into.submitted(count, waits, buffers, signals);
    }

    private void refuse(String function) {
        if (problem == null) {
            problem = "the captured frame called " + function + ", which the command-stream replay does not issue (add it to StreamOp)";
        }
    }

    private FFICIF cif(FFIType returns, FFIType... args) {
        FFICIF cif = FFICIF.calloc();
        cifs.add(cif);
        PointerBuffer types = MemoryUtil.memAllocPointer(args.length);
        for (int i = 0; i < args.length; i++) {
            types.put(i, args[i]);
        }
        if (ffi_prep_cif(cif, FFI_DEFAULT_ABI, returns, types) != FFI_OK) {
            throw new IllegalStateException("internal: ffi_prep_cif failed for a capture upcall");
        }
        return cif;
    }

    @Override
    public void close() {
        if (into != null) {
            install(false);
            into = null;
        }
        for (Slot s : slots) {
            Callback.free(s.upcall());
        }
        slots.clear();
        for (FFICIF cif : cifs) {
            MemoryUtil.nmemFree(memGetAddress(cif.address() + FFICIF.ARG_TYPES));   // the argument types made with it
            cif.free();
        }
        cifs.clear();
    }

    /** What an upcall does with the C arguments ({@code args}: an array of pointers to each) and the return slot. */
    private interface Body {
        void run(long ret, long args);
    }

    /** A libffi closure that calls {@link Body}; made once per redirected function, freed by {@link #close}. */
    private static final class Upcall implements CallbackI {
        private final Callback.Descriptor descriptor;
        private final Body body;
        final long address;

        Upcall(FFICIF cif, Body body) {
            this.descriptor = new Callback.Descriptor(Upcall.class, MethodHandles.lookup(), cif);
            this.body = body;
            this.address = CallbackI.super.address();
        }

        @Override
        public Callback.Descriptor getDescriptor() {
            return descriptor;
        }

        @Override
        public long address() {
            return address;
        }

        @Override
        public void callback(long ret, long args) {
            body.run(ret, args);
        }

        void free() {
            Callback.free(address);
        }
    }
}
