#version 460
// Test kernel: out = previous + total (a running sum kept in a history buffer).
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Prev { float value; } prev;
layout(std430, set = 0, binding = 1) readonly buffer Total { float value; } total;
layout(std430, set = 0, binding = 2) writeonly buffer Out { float value; } outValue;
void main() {
    outValue.value = prev.value + total.value;
}
