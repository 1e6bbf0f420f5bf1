package dev.tally.internal.graph;

import static org.lwjgl.vulkan.VK13.*;

/**
 * Pipeline stage masks (VkPipelineStageFlags2) compared as the stages they stand for: ALL_COMMANDS is every
 * stage, ALL_TRANSFER its copy, blit, resolve and clear stages, ALL_GRAPHICS the stages of a draw. The graph's
 * barrier placement asks whether one mask covers another and whether two share a stage.
 */
final class PipelineStages {
    private static final long TRANSFER_STAGES = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT
            | VK_PIPELINE_STAGE_2_RESOLVE_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT;
    private static final long GRAPHICS_STAGES = VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT
            | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT
            | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT
            | VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT
            | VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
            | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT
            | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;

    private PipelineStages() {
    }

    /** The stages {@code stages} stands for, each as its own bit (ALL_COMMANDS: every bit). */
    static long expanded(long stages) {
        if ((stages & (VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT)) != 0) {
            return -1L;
        }
        long out = stages;
        if ((stages & VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT) != 0) {
            out |= TRANSFER_STAGES;
        }
        if ((stages & VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT) != 0) {
            out |= GRAPHICS_STAGES;
        }
        return out;
    }

    /** The stages of {@code stages} that {@code by} does not include (0: covered). */
    static long notCovered(long stages, long by) {
        return expanded(stages) & ~expanded(by);
    }

    /** Whether the two masks share a stage. */
    static boolean overlap(long a, long b) {
        return (expanded(a) & expanded(b)) != 0;
    }
}
