package dev.tally.internal.shader;

/** A GLSL file did not compile; the message is shaderc's, one {@code file:line: message} per problem. */
public final class ShaderCompileException extends RuntimeException {
    public ShaderCompileException(String message) {
        super(message);
    }
}
