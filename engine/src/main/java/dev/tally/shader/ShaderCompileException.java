package dev.tally.shader;

/**
 * A GLSL file did not compile (live shaders, {@code shaders.live=true}); the message is shaderc's, one
 * {@code file:line: message} per problem. The pipelines that ran before stay.
 */
public final class ShaderCompileException extends RuntimeException {
    /**
     * Makes the error.
     *
     * @param message shaderc's report, or what was missing
     */
    public ShaderCompileException(String message) {
        super(message);
    }
}
