package dev.tally.internal.graph;

import static org.lwjgl.vulkan.VK10.*;

/** The color formats the graph knows sizes and names of. */
final class Formats {
    private Formats() {
    }

    static int bytesPerPixel(int format) {
        return switch (format) {
            case VK_FORMAT_R32G32B32A32_SFLOAT -> 16;
            case VK_FORMAT_R16G16B16A16_SFLOAT -> 8;
            case VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32_UINT -> 4;
            case VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB,
                 VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_B10G11R11_UFLOAT_PACK32 -> 4;
            case VK_FORMAT_R8_UNORM -> 1;
            default -> 16;
        };
    }

    static boolean isColor(int format) {
        return format != VK_FORMAT_D16_UNORM && format != VK_FORMAT_D32_SFLOAT && format != VK_FORMAT_D24_UNORM_S8_UINT
                && format != VK_FORMAT_D32_SFLOAT_S8_UINT && format != VK_FORMAT_UNDEFINED;
    }

    static String name(int format) {
        return switch (format) {
            case VK_FORMAT_R32G32B32A32_SFLOAT -> "RGBA32F";
            case VK_FORMAT_R16G16B16A16_SFLOAT -> "RGBA16F";
            case VK_FORMAT_R8G8B8A8_UNORM -> "RGBA8";
            case VK_FORMAT_R8G8B8A8_SRGB -> "RGBA8_SRGB";
            case VK_FORMAT_B8G8R8A8_UNORM -> "BGRA8";
            case VK_FORMAT_B8G8R8A8_SRGB -> "BGRA8_SRGB";
            case VK_FORMAT_R32_SFLOAT -> "R32F";
            case VK_FORMAT_B10G11R11_UFLOAT_PACK32 -> "B10G11R11F";
            default -> "format " + format;
        };
    }
}
